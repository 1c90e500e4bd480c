// The hook bundle's stand-in for graceful-fs: a hook process lives for one
// event and opens a handful of files, so EMFILE queueing buys nothing and
// loading it (and its patches of fs) costs start-up time.
module.exports = require("node:fs");
