/**
 * The compiled modules the page loads, relative to the package's `dist/`: the
 * page's own (`ui/client/`) and the time formats it shares with the CLI. The
 * server serves these and no other; a test checks the list is exactly what
 * `ui/client/app.ts` reaches through its imports, and the packaging script
 * finds the same set by following those imports.
 */
export const PAGE_MODULES: readonly string[] = [
	"ui/client/app.js",
	"ui/client/render.js",
	"ui/client/vnode.js",
	"ui/client/charts.js",
	"ui/client/counts.js",
	"ui/client/format-count.js",
	"present/format-time.js",
	"core/standing.js",
];
