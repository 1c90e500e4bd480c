// Child process: runs one verify command through the real shell runner, and is sent a stop signal by itself
// the moment the command's process group exists, before `spawn` has even returned to the runner: the earliest a
// harness can kill its hook once the verify runs. It writes the group to a file first. The test looks whether
// the group died with it.
import childProcess from "node:child_process";
import { writeFileSync } from "node:fs";
import { shellRunner } from "../../../dist/engine/runner.js";

const [cwd, groupFile, signal] = process.argv.slice(2);
const realSpawn = childProcess.spawn;
childProcess.spawn = (...args) => {
	const child = realSpawn(...args);
	writeFileSync(groupFile, String(child.pid));
	process.kill(process.pid, signal);
	return child;
};
await shellRunner.run("sleep 30; echo late", { cwd, timeoutMs: 60_000 });
process.stdout.write("finished");
