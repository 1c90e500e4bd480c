/**
 * The unit tier's guard: a test there that starts a child process, listens on
 * a socket or connects to one fails at that call, naming the tier it belongs
 * to. It makes the tier honest by construction rather than by review.
 *
 * Node's built-in modules are shared by every importer in a worker, and
 * `syncBuiltinESMExports` carries the change to `import { spawn } from
 * "node:child_process"` as well, so source and test code alike are caught.
 */
import childProcess from "node:child_process";
import { syncBuiltinESMExports } from "node:module";
import net from "node:net";

const MOVE = "name the file *.process.test.ts (or put it under test/e2e/) to do that";

function refuse(what: string): never {
	throw new Error(`the unit tier runs no ${what}: ${MOVE}`);
}

const spawners = ["spawn", "spawnSync", "exec", "execSync", "execFile", "execFileSync", "fork"] as const;
for (const name of spawners) {
	Object.defineProperty(childProcess, name, {
		configurable: true,
		writable: true,
		value: (file: unknown) => refuse(`child process (${name} ${String(file)})`),
	});
}
net.Server.prototype.listen = function listen(): never {
	return refuse("server socket (listen)");
};
net.Socket.prototype.connect = function connect(): never {
	return refuse("socket connection (connect)");
};
syncBuiltinESMExports();
