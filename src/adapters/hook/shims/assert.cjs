// The hook bundle's stand-in for node's `assert`. Its one user there is
// signal-exit (through proper-lockfile), which checks that its callback is a
// function; loading node's own module for that costs a hook process several
// milliseconds, most of it setting up stderr's stream to learn whether to
// print in colour. Only a failed check, or any other use, loads the real one.
const real = () => require("node:assert");

const equal = (actual, expected, message) => {
	// biome-ignore lint/suspicious/noDoubleEquals: assert.equal compares loosely.
	if (actual != expected) real().equal(actual, expected, message);
};

module.exports = new Proxy({ equal }, { get: (shim, name) => shim[name] ?? real()[name] });
