// The hook bundle's stand-in for `node:fs/promises`: the same functions, each
// done with node's synchronous call and its result handed back as a promise.
// A hook process runs one event and waits for each file operation before the
// next, so the thread pool buys it nothing: each operation there is two
// thread hand-offs, which a busy machine turns into milliseconds (a Stop that
// continues a plan does about fifty). The bytes written, the fsyncs, the
// errors (the same codes and messages) are node's own, unchanged.
//
// Everything still settles asynchronously, as callers expect; and so that a
// run of operations never keeps the event loop from its timers (the hook's
// watchdog) for long, a result goes through `setImmediate` when the last turn
// of the loop is more than YIELD_MS old. Anything not listed here is node's
// own `fs/promises`.
const fs = require("node:fs");

const YIELD_MS = 20;
let turnStarted = Date.now();

function settle(run) {
	let value;
	let failed = false;
	try {
		value = run();
	} catch (error) {
		value = error;
		failed = true;
	}
	// The promise is made when it is handed over, so a rejection never waits unhandled for the next turn.
	const settled = () => (failed ? Promise.reject(value) : Promise.resolve(value));
	if (Date.now() - turnStarted < YIELD_MS) return settled();
	return new Promise((resolve) => {
		setImmediate(() => {
			turnStarted = Date.now();
			resolve(settled());
		});
	});
}

function closed(syscall) {
	const error = new Error(`EBADF: file closed, ${syscall}`);
	error.code = "EBADF";
	error.syscall = syscall;
	return error;
}

class FileHandle {
	constructor(fd) {
		this._fd = fd;
	}
	get fd() {
		return this._fd;
	}
	_do(syscall, run) {
		return settle(() => {
			if (this._fd === -1) throw closed(syscall);
			return run(this._fd);
		});
	}
	read(buffer, offset, length, position) {
		if (buffer !== undefined && !ArrayBuffer.isView(buffer)) {
			({ buffer, offset, length, position } = buffer);
		}
		buffer ??= Buffer.alloc(16384);
		offset ??= 0;
		length ??= buffer.byteLength - offset;
		position ??= null;
		return this._do("read", (fd) => ({ bytesRead: fs.readSync(fd, buffer, offset, length, position), buffer }));
	}
	write(data, ...rest) {
		return this._do("write", (fd) => ({ bytesWritten: fs.writeSync(fd, data, ...rest), buffer: data }));
	}
	readFile(options) {
		return this._do("read", (fd) => fs.readFileSync(fd, options));
	}
	writeFile(data, options) {
		return this._do("write", (fd) => fs.writeFileSync(fd, data, options));
	}
	appendFile(data, options) {
		return this._do("write", (fd) => fs.appendFileSync(fd, data, options));
	}
	stat(options) {
		return this._do("fstat", (fd) => fs.fstatSync(fd, options));
	}
	sync() {
		return this._do("fsync", (fd) => fs.fsyncSync(fd));
	}
	datasync() {
		return this._do("fdatasync", (fd) => fs.fdatasyncSync(fd));
	}
	truncate(length) {
		return this._do("ftruncate", (fd) => fs.ftruncateSync(fd, length));
	}
	chmod(mode) {
		return this._do("fchmod", (fd) => fs.fchmodSync(fd, mode));
	}
	utimes(atime, mtime) {
		return this._do("futime", (fd) => fs.futimesSync(fd, atime, mtime));
	}
	close() {
		if (this._fd === -1) return Promise.resolve();
		const fd = this._fd;
		this._fd = -1;
		return settle(() => fs.closeSync(fd));
	}
}

const shim = {
	constants: fs.constants,
	open: (file, flags, mode) => settle(() => new FileHandle(fs.openSync(file, flags ?? "r", mode))),
};
for (const name of [
	"access",
	"appendFile",
	"chmod",
	"copyFile",
	"lstat",
	"mkdir",
	"mkdtemp",
	"readdir",
	"readFile",
	"readlink",
	"realpath",
	"rename",
	"rm",
	"rmdir",
	"stat",
	"symlink",
	"truncate",
	"unlink",
	"utimes",
	"writeFile",
]) {
	// realpath: the native call, as node's promise does (not the JS walk of `realpathSync`).
	const sync = name === "realpath" ? fs.realpathSync.native : fs[`${name}Sync`];
	shim[name] = (...args) => settle(() => sync(...args));
}

module.exports = new Proxy(shim, { get: (own, name) => (Object.hasOwn(own, name) ? own[name] : fs.promises[name]) });
