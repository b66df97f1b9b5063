// Reading trajectory files from disk: streamed, off the caller's thread, and live while growing.
export { loadTrajectoryFile, type LoadTrajectoryOptions, type TrajectoryLoadProgress } from './loadTrajectoryFile';
export {
  watchTrajectoryFile,
  type TrajectoryFileChange,
  type TrajectoryWatcher,
  type WatchOptions,
} from './watchTrajectoryFile';
