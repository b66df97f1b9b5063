// Small statistics the study reports need, each tested against reference values computed
// independently (scipy/numpy; see test/unit/stats).
export { wilsonInterval, Z_95, type Proportion } from './proportion';
export { mcnemarExact, pairedTable, type PairedTable } from './mcnemar';
export { quantile, spread, type Spread } from './quantiles';
export {
  clusterBootstrap,
  BOOTSTRAP_REPLICATES,
  BOOTSTRAP_SEED,
  type BootstrapInterval,
  type ClusterCount,
} from './clusterBootstrap';
