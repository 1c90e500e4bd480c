// The hook bundles' stand-in for graceful-fs (proper-lockfile's, for the
// state locks): node's `fs`, except that the calls the lock makes (mkdir,
// stat, utimes, rmdir, realpath) are done synchronously, their callbacks
// still called later (on the next tick), as an asynchronous call's are. See
// `fs-promises.cjs`: a hook waits for each of them anyway, and the thread
// pool's hand-offs are what cost it. Everything else is node's own.
const fs = require("node:fs");

const shim = Object.create(fs);
for (const name of ["mkdir", "stat", "lstat", "utimes", "rmdir", "realpath"]) {
	const sync = name === "realpath" ? fs.realpathSync.native : fs[`${name}Sync`];
	shim[name] = (...args) => {
		const callback = args.pop();
		let result;
		try {
			result = sync(...args);
		} catch (error) {
			process.nextTick(callback, error);
			return;
		}
		process.nextTick(callback, null, result);
	};
}

module.exports = shim;
