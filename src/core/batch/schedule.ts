import type { LaneKey, StepKey } from './keys';
import { laneId } from './keys';

/** A lane's steps still to evaluate, in chain order. */
export interface LanePlan extends LaneKey {
  readonly orders: readonly number[];
  /**
   * Its steps one at a time, in order, whatever the mode: an agent lane's steps all happen in its
   * one work tree (under Oracle too, each step's start is entered there after the one before).
   */
  readonly sequential?: boolean;
}

interface LaneState {
  readonly key: LaneKey;
  readonly sequential: boolean;
  readonly pending: number[];
  inFlight: number;
}

/**
 * Which step runs next (docs/reference/batch.md, "Order"): lanes take turns, one step each, so
 * every chain, source and mode advances at the same pace and a long chain does not hold the
 * others back. A Seq (or Seq+Mem) lane runs one step at a time, in chain order (step k builds on
 * k-1, as a solver working the chain would); an Oracle lane's recorded steps are independent and
 * may overlap, an agent's are not (LanePlan.sequential).
 */
export class BatchScheduler {
  private readonly lanes: LaneState[];
  private turn = 0;

  constructor(plans: readonly LanePlan[]) {
    this.lanes = plans
      .filter((p) => p.orders.length > 0)
      .map((p) => ({
        key: { chainId: p.chainId, source: p.source, mode: p.mode },
        pending: [...p.orders],
        sequential: p.sequential === true || p.mode !== 'oracle',
        inFlight: 0,
      }));
  }

  /** The next step that may start now, or null (all started, or the rest wait for a Seq step). */
  next(): StepKey | null {
    for (let i = 0; i < this.lanes.length; i++) {
      const lane = this.lanes[(this.turn + i) % this.lanes.length];
      if (lane.pending.length === 0) continue;
      if (lane.sequential && lane.inFlight > 0) continue;
      this.turn = (this.turn + i + 1) % this.lanes.length;
      lane.inFlight++;
      return { ...lane.key, order: lane.pending.shift()! };
    }
    return null;
  }

  /** A started step ended; returns true when its lane has nothing left to run or running. */
  finished(step: StepKey): boolean {
    const lane = this.lanes.find((l) => laneId(l.key) === laneId(step));
    if (!lane) throw new Error(`BatchScheduler: no lane ${laneId(step)}`);
    lane.inFlight--;
    return lane.pending.length === 0 && lane.inFlight === 0;
  }

  /**
   * The lanes whose steps next() hands out next, in turn order, up to `n` of them (each once): a
   * runner prepares their work trees ahead, while the current steps' containers run.
   */
  upcoming(n: number): LaneKey[] {
    const out: LaneKey[] = [];
    for (let i = 0; i < this.lanes.length && out.length < n; i++) {
      const lane = this.lanes[(this.turn + i) % this.lanes.length];
      if (lane.pending.length > 0) out.push(lane.key);
    }
    return out;
  }

  /** Nothing left to start. */
  get drained(): boolean {
    return this.lanes.every((l) => l.pending.length === 0);
  }

  get busy(): boolean {
    return this.lanes.some((l) => l.inFlight > 0);
  }
}
