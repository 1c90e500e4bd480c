/**
 * Builds the Claude Code hook program, which Claude Code starts as a new
 * process for every hook event, so start-up is what it must be good at:
 *
 * - `dist/hook/<harness>-main.cjs`, one per command-hook harness of the
 *   registry (`src/adapters/registry.ts`, the adapters with a `hook`): the
 *   whole hook of that harness in one file (`src/adapters/hook/main.ts` with
 *   the harness's `dialect.ts`), every dependency inlined (nothing resolved
 *   from node_modules at run time) and nothing it does not use (the CLI and
 *   its framework, any other harness) reachable from it. CommonJS, because
 *   Node 20 starts a CommonJS file faster than an ES module.
 * - `dist/hook/claude-code.cjs`: the small loader Claude Code's hooks run; it
 *   loads the bundle through V8's code cache (`src/adapters/hook/loader.ts`).
 *   `boulder-hook.cjs` is the same loader under the name every command-hook
 *   harness runs (`boulder-hook.cjs <harness> <event>`), which picks the
 *   harness's bundle by its first argument.
 *
 * Runs after `tsc` (`npm run build`), writing only into `dist/hook/`. With
 * `BOULDER_READABLE_BUNDLE=<folder>` it writes the same bundles into that
 * folder unminified, each module's code marked with its source file, for the
 * start-up profile (`bench/profile-startup.mjs`).
 */
import { createRequire, isBuiltin } from "node:module";
import { fileURLToPath } from "node:url";
import { defineConfig } from "tsdown";
import { ADAPTERS } from "./src/adapters/registry.ts";
import { COMMANDS } from "./src/cli/commands/index.ts";

const readable = process.env.BOULDER_READABLE_BUNDLE;

/**
 * Every character past ASCII in the output written as a `\\uXXXX` escape (in
 * strings, untagged templates, regular expressions and comments alike, which
 * is all the bundles hold). Node reads a file of ASCII alone into a string of
 * one byte a character, half the memory of the two-byte string one dash
 * anywhere in 480 kB of code makes, and faster, on every start.
 */
const asciiOutput = {
	name: "boulder-ascii-output",
	generateBundle(_options: unknown, bundle: Record<string, { type: string; code?: string }>) {
		for (const file of Object.values(bundle)) {
			if (file.type !== "chunk" || file.code === undefined) continue;
			file.code = file.code.replace(
				/[\u0080-\uffff]/g,
				(char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
			);
		}
	},
};

const common = {
	outDir: readable || "dist/hook",
	clean: false,
	format: "cjs",
	platform: "node",
	target: "node20",
	fixedExtension: true,
	dts: false,
	sourcemap: false,
	minify: !readable,
	deps: { alwaysBundle: [/.*/], onlyBundle: false },
	plugins: [asciiOutput],
	alias: {
		// Its `main` is a UMD build that requires its parts at run time, which a bundle cannot follow; its ES build imports them.
		"jsonc-parser": fileURLToPath(new URL("./node_modules/jsonc-parser/lib/esm/main.js", import.meta.url)),
	},
} as const;

/** The command-hook harnesses, from the registry's one line each: each gets a hook bundle of its own. */
const HOOK_HARNESSES = ADAPTERS.filter((adapter) => adapter.hook !== undefined).map((adapter) => adapter.name);

/** The harnesses whose file-change event gets a bundle of its own (`<harness>-<event>-main.cjs`), by event. */
const FILE_CHANGE_BUNDLES: Record<string, string> = Object.fromEntries(
	ADAPTERS.flatMap((adapter) => (adapter.hook?.fileChangeEvent ? [[adapter.name, adapter.hook.fileChangeEvent]] : [])),
);

const HOOK_ENTRY = "\0boulder-hook-entry:";

/** The entry of one harness's hook bundle: the hook program run with that harness's dialect. */
const hookEntries = {
	name: "boulder-hook-entries",
	resolveId(source: string) {
		return source.startsWith(HOOK_ENTRY) ? source : null;
	},
	load(id: string) {
		if (!id.startsWith(HOOK_ENTRY)) return null;
		const [harness = "", fileChange] = id.slice(HOOK_ENTRY.length).split(":");
		const main = fileURLToPath(new URL("./src/adapters/hook/main.ts", import.meta.url));
		const dialect = fileURLToPath(new URL(`./src/adapters/${harness}/dialect.ts`, import.meta.url));
		// A file-change bundle runs the dialect file's `fileChanges` and opens no Engine: none of the Stop path is reachable.
		const [run, exported] = fileChange ? ["runFileChangeMain", "fileChanges"] : ["runHookMain", "dialect"];
		return `import { ${run} } from ${JSON.stringify(main)};\nimport { ${exported} } from ${JSON.stringify(dialect)};\n${run}(${exported});\n`;
	},
};

/** What each loader loads, and the folder and name of its code cache (`src/adapters/hook/loader.ts`). */
const hookLoader = {
	define: {
		BOULDER_LOADER: JSON.stringify({
			bundle: "claude-code-main.cjs",
			cacheFolder: "hook-code-cache",
			cachePrefix: "claude-code",
			variants: null,
			harnesses: HOOK_HARNESSES,
			eventBundles: FILE_CHANGE_BUNDLES,
		}),
	},
};
const cliOut = readable ? `${readable}/cli` : "dist/cli";

const LAZY_BUILTIN = "\0lazy-builtin:";

/**
 * Node's built-in modules, each behind a small CommonJS wrapper that is
 * required where the importing module first runs. An ES import of a built-in
 * is hoisted to the top of the bundle, so the one-file CLI would load every
 * built-in any command uses (the dashboard's `node:http2`, `node:tls`, ...)
 * on every start, `--version` included.
 */
const lazyBuiltins = {
	name: "boulder-lazy-builtins",
	resolveId(source: string, importer: string | undefined) {
		if (importer && !importer.startsWith(LAZY_BUILTIN) && isBuiltin(source)) return `${LAZY_BUILTIN}${source}`;
		return null;
	},
	load(id: string) {
		if (!id.startsWith(LAZY_BUILTIN)) return null;
		return `module.exports = require(${JSON.stringify(id.slice(LAZY_BUILTIN.length))});`;
	},
};

/**
 * A hook bundle's file operations done synchronously (`shims/fs-promises.cjs`):
 * a hook process waits for each one anyway, and the thread pool's hand-offs
 * cost it more than the operations. Only the
 * hook bundles: the CLI's bundle also runs the dashboard, which must not block.
 */
const hookAlias = {
	...common.alias,
	"node:fs/promises": fileURLToPath(new URL("./src/adapters/hook/shims/fs-promises.cjs", import.meta.url)),
	"fs/promises": fileURLToPath(new URL("./src/adapters/hook/shims/fs-promises.cjs", import.meta.url)),
};

const HOOK_BUILTIN = "\0hook-builtin:";

/**
 * Built-ins a hook bundle names but seldom calls: each is loaded where it is
 * first used. A bundle is run whole at start, so a built-in it imports at
 * all is loaded on every hook event: `node:module` (`createRequire`, for the
 * rare verify command, shipper or long scope key) brings node's ES module
 * loader with it, `node:os` is only asked for the home folder when
 * `HOME` is unset, and `node:util` only for Qwen Code's env files.
 */
const LAZY_HOOK_BUILTINS = ["node:module", "node:os", "node:util"];

/** Built-ins the hook's code imports whole (`import path from "node:path"`). */
const WHOLE_HOOK_BUILTINS = ["node:path"];

/**
 * Puts each of those built-ins behind a small ES module of the bundle's own.
 * A lazy one's default export has a getter per export and its named exports
 * are functions, each loading the real module on first use; a named import
 * of anything else of it fails the build. A whole one is the module itself:
 * a default import of a built-in is otherwise copied, property by property,
 * into a module object at start (the bundler's CommonJS interop). The names
 * are the build's node's; the code targets that node or newer.
 */
const hookBuiltins = {
	name: "boulder-hook-builtins",
	resolveId(source: string, importer: string | undefined) {
		const id = source.startsWith("node:") ? source : `node:${source}`;
		if (importer?.startsWith(HOOK_BUILTIN)) return null;
		return LAZY_HOOK_BUILTINS.includes(id) || WHOLE_HOOK_BUILTINS.includes(id) ? `${HOOK_BUILTIN}${id}` : null;
	},
	load(id: string) {
		if (!id.startsWith(HOOK_BUILTIN)) return null;
		const builtin = id.slice(HOOK_BUILTIN.length);
		const real = createRequire(import.meta.url)(builtin) as Record<string, unknown>;
		const names = Object.keys(real).filter((name) => name !== "default" && /^[A-Za-z_$][\w$]*$/.test(name));
		const named = JSON.stringify(builtin);
		if (!LAZY_HOOK_BUILTINS.includes(builtin)) {
			return `const real = require(${named});\nexport default real;\nexport const { ${names.join(", ")} } = real;\n`;
		}
		const functions = names.filter((name) => typeof real[name] === "function");
		return [
			"let real;",
			`const load = () => (real ??= require(${named}));`,
			`export default { ${names.map((name) => `get ${name}() { return load().${name}; }`).join(", ")} };`,
			...functions.map((name) => `export function ${name}(...args) { return load().${name}(...args); }`),
		].join("\n");
	},
};

/**
 * A harness's dialect file also holds its installer's data and doctor, which
 * import the settings editor (`jsonc-parser`); the hook needs none of it. The
 * parser's ES build sets up its enums at load, which a bundler must keep from
 * any module imported at all, so it is declared free of side effects: what
 * the hook does not use of it is dropped with the installer.
 */
const hookTreeshake = {
	moduleSideEffects: (id: string) => !/[\\/]node_modules[\\/]jsonc-parser[\\/]/.test(id),
};

export default defineConfig([
	...HOOK_HARNESSES.map((harness) => ({
		...common,
		alias: hookAlias,
		treeshake: hookTreeshake,
		entry: { [`${harness}-main`]: `${HOOK_ENTRY}${harness}` },
		plugins: [hookEntries, hookBuiltins, asciiOutput],
	})),
	...Object.entries(FILE_CHANGE_BUNDLES).map(([harness, event]) => ({
		...common,
		alias: hookAlias,
		treeshake: hookTreeshake,
		entry: { [`${harness}-${event}-main`]: `${HOOK_ENTRY}${harness}:file-change` },
		plugins: [hookEntries, hookBuiltins, asciiOutput],
	})),
	{ ...common, ...hookLoader, entry: { "claude-code": "src/adapters/hook/loader.ts" } },
	{ ...common, ...hookLoader, entry: { "boulder-hook": "src/adapters/hook/loader.ts" } },
	// One file, with each command's code run only when the command is: no chunks, so the cache covers it all.
	{
		...common,
		outDir: cliOut,
		entry: { "boulder-main": "src/cli/bin.ts" },
		outputOptions: { codeSplitting: false },
		plugins: [lazyBuiltins, asciiOutput],
	},
	{
		...common,
		outDir: cliOut,
		entry: { boulder: "src/adapters/hook/loader.ts" },
		define: {
			BOULDER_LOADER: JSON.stringify({
				bundle: "boulder-main.cjs",
				cacheFolder: "cli-code-cache",
				cachePrefix: "boulder",
				variants: COMMANDS.map((command) => command.name),
			}),
		},
	},
]);
