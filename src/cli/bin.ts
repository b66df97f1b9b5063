import { runCliProcess } from './cliProcess';
import { main } from './main';

runCliProcess(main);
