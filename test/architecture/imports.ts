/**
 * Reads every import of `src/` from the source text (static imports,
 * re-exports and dynamic `import()`), with TypeScript's own pre-processor, and
 * checks them against the layer rules of docs/architecture.md. Pure over its input, so a
 * test can hand it a made-up violation and see it caught.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

export interface SourceFile {
	/** Relative to `src/`, with `/`: `adapters/opencode/hub.ts`. */
	file: string;
	text: string;
}

export interface ImportEdge {
	from: string;
	/** Resolved to a `src/`-relative `.ts` path for relative imports; the specifier as written otherwise. */
	to: string;
	external: boolean;
}

export function readSources(srcDir: string): SourceFile[] {
	const files: SourceFile[] = [];
	const walk = (dir: string) => {
		for (const entry of readdirSync(dir, { withFileTypes: true })) {
			const full = path.join(dir, entry.name);
			if (entry.isDirectory()) walk(full);
			else if (entry.name.endsWith(".ts")) {
				files.push({ file: path.relative(srcDir, full).split(path.sep).join("/"), text: readFileSync(full, "utf8") });
			}
		}
	};
	walk(srcDir);
	return files;
}

export function importsOf(source: SourceFile): ImportEdge[] {
	const info = ts.preProcessFile(source.text, true, true);
	return info.importedFiles.map(({ fileName }) => {
		if (!fileName.startsWith(".")) return { from: source.file, to: fileName, external: true };
		const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(source.file), fileName));
		return { from: source.file, to: resolved.replace(/\.js$/, ".ts"), external: false };
	});
}

/** The layer of a `src/`-relative path: its first folder, or `root` for files directly in `src/`. */
export function layerOf(file: string): string {
	const slash = file.indexOf("/");
	return slash === -1 ? "root" : file.slice(0, slash);
}

/** `adapters/claude-code/events.ts` → `claude-code`; the contract and registry files have none. */
function adapterFolderOf(file: string): string | null {
	const parts = file.split("/");
	return parts[0] === "adapters" && parts.length > 2 ? (parts[1] ?? null) : null;
}

/** Which layers each layer may import (itself included). */
const ALLOWED: Record<string, readonly string[]> = {
	core: ["core"],
	state: ["core", "state"],
	engine: ["core", "state", "engine"],
	present: ["core", "engine", "present"],
	fleet: ["core", "state", "engine", "present", "fleet"],
	adapters: ["core", "engine", "present", "adapters"],
	cli: ["core", "engine", "present", "adapters", "ui", "fleet", "cli"],
	ui: ["core", "engine", "present", "adapters", "fleet", "ui"],
	demo: ["core", "state", "engine", "present", "demo"],
	// The SDK entries host adapters in someone's own program: they may use an adapter's files, never the CLI or the state.
	sdk: ["core", "engine", "present", "adapters", "sdk"],
	root: ["core", "state", "engine", "present", "adapters"],
};

/** The only packages the core may use: zod for its schemas, and Node's hashing (loaded lazily, pure in use). */
const CORE_PACKAGES: ReadonlySet<string> = new Set(["zod", "node:module", "node:crypto"]);

/** The package a bare specifier names: `zod/mini` and `zod/v4/locales/en.js` are zod. */
function packageOf(specifier: string): string {
	if (specifier.startsWith("node:")) return specifier;
	const parts = specifier.split("/");
	return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? specifier);
}

/** What the core may not do: read the clock, draw random numbers, or touch the process. */
const IMPURE = /\bDate\.now\(|new Date\(\)|Math\.random\(|\bprocess\.|\bsetTimeout\(|\bsetInterval\(/;

/** The one dashboard file the CLI may import: what `boulder ui` starts. */
const UI_DOORS: ReadonlySet<string> = new Set(["ui/index.ts"]);

/** The adapter files the faces may import: the contract and the registry. */
const ADAPTER_DOORS: ReadonlySet<string> = new Set(["adapters/types.ts", "adapters/registry.ts"]);

export function violations(sources: readonly SourceFile[]): string[] {
	const found: string[] = [];
	for (const source of sources) {
		const from = source.file;
		const layer = layerOf(from);
		const allowed = ALLOWED[layer];
		if (!allowed) {
			found.push(`${from}: in a folder no layer rule covers (${layer}/)`);
			continue;
		}
		if (layer === "core" && IMPURE.test(withoutComments(source.text))) {
			found.push(`${from}: the core reads the clock, randomness or the process`);
		}
		if (layer !== "state" && /["'`]\.boulder["'`/]/.test(withoutComments(source.text))) {
			found.push(`${from}: names boulder's state folder; only src/state touches state files`);
		}
		for (const edge of importsOf(source)) {
			const target = edge.to;
			if (edge.external) {
				if (layer === "core" && !CORE_PACKAGES.has(packageOf(target)))
					found.push(`${from}: the core imports ${target}`);
				if (packageOf(target) === "pg" && layer !== "fleet")
					found.push(`${from}: imports pg; only src/fleet talks to PostgreSQL (never the hook's path)`);
				continue;
			}
			const to = layerOf(target);
			if (!allowed.includes(to)) {
				found.push(`${from} → ${target}: ${layer} may not import ${to}`);
				continue;
			}
			if (to === "adapters" && layer !== "adapters" && layer !== "sdk" && !ADAPTER_DOORS.has(target)) {
				found.push(`${from} → ${target}: outside the adapters, only the registry and the contract are imported`);
			}
			if (to === "ui" && layer !== "ui" && !UI_DOORS.has(target)) {
				found.push(`${from} → ${target}: outside the dashboard, only ui/index.ts is imported`);
			}
			const own = adapterFolderOf(from);
			const theirs = adapterFolderOf(target);
			if (own !== null && theirs !== null && theirs !== own && !FAMILY_FOLDERS.has(theirs)) {
				found.push(`${from} → ${target}: one adapter imports another's folder`);
			}
			// A command-hook harness that is one file (Factory Droid) has its adapter in its dialect.ts.
			if (from === "adapters/registry.ts" && theirs !== null && !/\/(adapter|dialect)\.ts$/.test(target)) {
				found.push(`${from} → ${target}: the registry names each adapter's adapter.ts (or one-file dialect.ts) only`);
			}
		}
	}
	return found;
}

/**
 * The import cycles inside each layer, as the files of each cycle (sorted),
 * type-only and dynamic imports included: a layer's files form a tree of
 * leaves and users, so any of its modules can be read, tested and loaded on
 * its own. Tarjan's strongly connected components over the layer's edges.
 */
export function layerCycles(sources: readonly SourceFile[]): string[][] {
	const next = new Map<string, string[]>();
	for (const source of sources) {
		const targets = importsOf(source)
			.filter((edge) => !edge.external && layerOf(edge.to) === layerOf(source.file))
			.map((edge) => edge.to);
		next.set(source.file, targets);
	}
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const onStack = new Set<string>();
	const found: string[][] = [];
	const visit = (file: string): void => {
		index.set(file, index.size);
		low.set(file, index.get(file) as number);
		stack.push(file);
		onStack.add(file);
		for (const target of next.get(file) ?? []) {
			if (!next.has(target)) continue;
			if (!index.has(target)) {
				visit(target);
				low.set(file, Math.min(low.get(file) as number, low.get(target) as number));
			} else if (onStack.has(target)) {
				low.set(file, Math.min(low.get(file) as number, index.get(target) as number));
			}
		}
		if (low.get(file) !== index.get(file)) return;
		const component: string[] = [];
		for (;;) {
			const member = stack.pop() as string;
			onStack.delete(member);
			component.push(member);
			if (member === file) break;
		}
		if (component.length > 1 || (next.get(file) ?? []).includes(file)) found.push(component.sort());
	};
	for (const file of next.keys()) if (!index.has(file)) visit(file);
	return found;
}

/** The adapter folders every adapter may import: shared helpers, the command-hook family and its hook program. */
const FAMILY_FOLDERS: ReadonlySet<string> = new Set(["shared", "command-hook", "hook"]);

function withoutComments(text: string): string {
	return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
}
