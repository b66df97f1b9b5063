// Entry of dist/webview.js, shared by ChainLens's webviews: the host page names its view in
// <body data-view="…">, and only that view's code runs.
import { mountProblemView } from './problem/problemView';
import { mountReportView } from './report/reportView';
import { mountTrajectoryCompareView } from './trajectory/compareView';
import { mountTrajectoryView } from './trajectory/trajectoryView';

const views: Record<string, (root: HTMLElement) => void> = {
  problem: mountProblemView,
  report: mountReportView,
  trajectory: mountTrajectoryView,
  trajectoryCompare: mountTrajectoryCompareView,
};

const name = document.body.dataset.view ?? '';
const mount = views[name];
const root = document.getElementById('root');
if (mount && root) mount(root);
else if (root) root.textContent = `ChainLens: unknown view '${name}'`;
