// Where a run's evaluations are kept (the use case that makes them is src/app/evaluation).
export { EvalStore } from './evalStore';
