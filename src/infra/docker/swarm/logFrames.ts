// Docker's multiplexed log format (no TTY): frames of an 8-byte header (stream type 0-2, three
// zero bytes, big-endian payload length) and the payload. `docker service logs` answers in it.

function isHeader(bytes: Buffer, at: number): boolean {
  return at + 8 <= bytes.length && bytes[at] <= 2 && bytes[at + 1] === 0 && bytes[at + 2] === 0 && bytes[at + 3] === 0;
}

/**
 * The payloads of the frames in `bytes`, in order. Bytes that do not start with a frame header
 * (a raw log, or a cut-off header) are kept as they are, so nothing of the log is dropped.
 */
export function demuxFrames(bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let at = 0;
  while (at < bytes.length) {
    if (!isHeader(bytes, at)) {
      out.push(bytes.subarray(at));
      break;
    }
    const end = Math.min(bytes.length, at + 8 + bytes.readUInt32BE(at + 4));
    out.push(bytes.subarray(at + 8, end));
    at = end;
  }
  return out;
}
