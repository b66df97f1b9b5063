import { runCliProcess } from './main';

runCliProcess();
