// The run's input files are read by the use case (src/app/run/inputs.ts); CLI commands import them from here.
export { readChainFile, readPredictionsOption, recordedPatches, type ChainSelection } from '../app/run/inputs';
