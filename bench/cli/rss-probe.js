// Preloaded with `node --import` into a whole `zoneplan` process: on exit it writes the process's
// peak RSS (kB) to the file named by ZONEPLAN_BENCH_RSS_FILE. It registers one listener and
// nothing else, so the process it measures is the command as users run it.
import { writeFileSync } from 'node:fs';

const file = process.env.ZONEPLAN_BENCH_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
