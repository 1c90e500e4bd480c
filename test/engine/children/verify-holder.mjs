// Child process: runs one verify command through the real shell runner (it writes its process group to a
// file, then sleeps), and waits. The test kills this process and looks whether the group died with it.
import { shellRunner } from "../../../dist/engine/runner.js";

const [cwd, groupFile] = process.argv.slice(2);
await shellRunner.run(`echo $$ > ${JSON.stringify(groupFile)}; sleep 30; echo late`, { cwd, timeoutMs: 60_000 });
process.stdout.write("finished");
