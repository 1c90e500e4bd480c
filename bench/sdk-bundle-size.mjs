/**
 * What each SDK entry (`boulder-agent/sdk/claude`, `/sdk/codex`,
 * `/sdk/opencode`, `/sdk/pi`) adds to the package and to a program that
 * imports it: the compiled modules it reaches through relative imports (as
 * shipped, unminified), in all and beyond what the package's other entries
 * (`.`, `./claude-code`, `./opencode`, `./pi`) already reach, and the
 * packages it loads. No SDK is among them: the entries use only their own
 * structural types.
 *
 * Run after `npm run build`: `node bench/sdk-bundle-size.mjs`. Writes
 * `bench/results/sdk-bundle-size.json`.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = path.join(repoRoot, "dist");
const SDK_ENTRIES = ["claude", "codex", "opencode", "pi"];
const OTHER_ENTRIES = [
	"index.js",
	"adapters/claude-code/index.js",
	"adapters/opencode/plugin.js",
	"adapters/pi/extension.js",
];
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)"([^"]+)"/g;

for (const name of SDK_ENTRIES) {
	if (!existsSync(path.join(dist, "sdk", `${name}.js`))) {
		console.error(`dist/sdk/${name}.js is missing: run \`npm run build\` first.`);
		process.exit(1);
	}
}

/** Every module `entries` reach, and the packages they import. */
function reach(entries) {
	const seen = new Set();
	const packages = new Set();
	const todo = entries.map((entry) => path.join(dist, entry));
	while (todo.length > 0) {
		const file = todo.pop();
		if (seen.has(file)) continue;
		seen.add(file);
		for (const match of readFileSync(file, "utf8").matchAll(IMPORT)) {
			const specifier = match[1];
			if (specifier.startsWith(".")) todo.push(path.resolve(path.dirname(file), specifier));
			else if (!specifier.startsWith("node:") && isPackage(specifier)) packages.add(specifier);
		}
	}
	return { files: seen, packages };
}

/** A specifier naming an installed package (a match inside a string or a comment names none). */
function isPackage(specifier) {
	const parts = specifier.split("/");
	const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
	return existsSync(path.join(repoRoot, "node_modules", name, "package.json"));
}

const bytes = (files) => [...files].reduce((sum, file) => sum + statSync(file).size, 0);
const gzipBytes = (files) => gzipSync(Buffer.concat([...files].map((file) => readFileSync(file)))).length;

const others = reach(OTHER_ENTRIES).files;
const entries = {};
for (const name of SDK_ENTRIES) {
	const { files, packages } = reach([`sdk/${name}.js`]);
	const added = new Set([...files].filter((file) => !others.has(file)));
	entries[`boulder-agent/sdk/${name}`] = {
		modules: files.size,
		bytes: bytes(files),
		gzipBytes: gzipBytes(files),
		addedModules: [...added].map((file) => path.relative(dist, file)).sort(),
		addedBytes: bytes(added),
		packages: [...packages].sort(),
	};
}
const result = {
	what: "compiled modules each SDK entry reaches (as shipped, unminified), and those no other entry of the package reaches",
	command: "node bench/sdk-bundle-size.mjs",
	at: new Date().toISOString(),
	entries,
};
const out = path.join(repoRoot, "bench", "results", "sdk-bundle-size.json");
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
for (const [name, entry] of Object.entries(entries)) {
	console.log(
		`${name.padEnd(26)} reaches ${entry.modules} modules, ${(entry.bytes / 1024).toFixed(1)} kB (${(entry.gzipBytes / 1024).toFixed(1)} kB gzip); adds ${entry.addedModules.length} modules, ${(entry.addedBytes / 1024).toFixed(1)} kB; packages: ${entry.packages.join(", ") || "none"}`,
	);
}
