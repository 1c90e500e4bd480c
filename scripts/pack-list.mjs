/**
 * Ships only what runs. The command line and the hooks run from bundles
 * (`dist/cli/*.cjs`, `dist/hook/*.cjs`); the unbundled modules in `dist/` are
 * loaded only by the package's exports (the library, the OpenCode plugin,
 * pi's extension) and by the dashboard's page. After a build this writes
 * `dist/.npmignore` naming every compiled module none of those reaches, so
 * `npm pack` leaves them out (a nested .npmignore narrows `files`), and
 * every type declaration the exports' declarations do not reach.
 *
 * `reachable()` is exported for the packaging test.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = path.join(root, "dist");

/**
 * The dashboard page's entry module: every module it imports is found by
 * following its imports (the same set as src/ui/page-modules.ts, which a test
 * checks), so a new page module needs no line here.
 */
const PAGE_ENTRIES = ["ui/client/app.js"];

function exportTargets() {
	const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
	return Object.values(pkg.exports).flatMap((entry) => (typeof entry === "string" ? [entry] : Object.values(entry)));
}

function entryFiles(kind) {
	const ending = kind === "types" ? ".d.ts" : ".js";
	const targets = exportTargets().filter((target) => target.startsWith("./dist/") && target.endsWith(ending));
	const page = kind === "types" ? [] : PAGE_ENTRIES.map((module) => `./dist/${module}`);
	return [...targets.filter((target) => kind === "types" || !target.endsWith(".d.ts")), ...page].map((target) =>
		path.join(root, target),
	);
}

const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)"(\.{1,2}\/[^"]+)"/g;

/**
 * Every compiled module (`kind` "modules") or type declaration ("types") the
 * package's entry points reach through relative imports, static or dynamic,
 * as paths in `dist/`.
 */
export function reachable(kind = "modules") {
	const seen = new Set();
	const todo = entryFiles(kind);
	while (todo.length > 0) {
		const file = todo.pop();
		if (seen.has(file)) continue;
		seen.add(file);
		for (const match of readFileSync(file, "utf8").matchAll(RELATIVE_IMPORT)) {
			const target = path.resolve(path.dirname(file), match[1]);
			todo.push(kind === "types" ? target.replace(/\.js$/, ".d.ts") : target);
		}
	}
	return new Set([...seen].map((file) => path.relative(dist, file).split(path.sep).join("/")));
}

function builtFiles(folder = dist, prefix = "") {
	return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
		const name = `${prefix}${entry.name}`;
		return entry.isDirectory() ? builtFiles(path.join(folder, entry.name), `${name}/`) : [name];
	});
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const modules = reachable("modules");
	const types = reachable("types");
	const drop = builtFiles().filter((file) => {
		if (file.startsWith("demo/") || file.startsWith("hook/")) return false;
		if (file.endsWith(".d.ts")) return !types.has(file);
		return file.endsWith(".js") && !modules.has(file);
	});
	const header =
		"# Written by scripts/pack-list.mjs after each build: compiled modules and declarations nothing shipped loads.\n";
	writeFileSync(path.join(dist, ".npmignore"), `${header}${drop.map((module) => `/${module}\n`).join("")}`);
}
