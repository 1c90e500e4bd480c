import path from "node:path";
import { describe, expect, it } from "vitest";
import { importsOf, layerCycles, readSources, type SourceFile, violations } from "./imports.js";

const SRC = path.resolve(import.meta.dirname, "../../src");
const sources = readSources(SRC);
const edges = sources.flatMap(importsOf);

describe("the layers of docs/architecture.md, read from the source", () => {
	it("sees the whole source tree, so the checks below cannot pass on nothing", () => {
		expect(sources.length).toBeGreaterThan(100);
		expect(edges.filter((edge) => !edge.external).length).toBeGreaterThan(300);
		expect(edges.some((edge) => edge.from.startsWith("adapters/") && edge.to.startsWith("engine/"))).toBe(true);
		expect(edges.some((edge) => edge.from.startsWith("cli/") && edge.to === "adapters/registry.ts")).toBe(true);
	});

	it("has no import that breaks a layer rule", () => {
		expect(violations(sources)).toEqual([]);
	});

	const add = (file: string, text: string): SourceFile[] => [...sources, { file, text }];

	it("catches an adapter that imports the CLI", () => {
		expect(violations(add("adapters/opencode/oops.ts", 'import { EXIT } from "../../cli/exit-codes.js";'))).toEqual([
			"adapters/opencode/oops.ts → cli/exit-codes.ts: adapters may not import cli",
		]);
	});

	it("catches an adapter that reaches into the state layer, even through a dynamic import", () => {
		const found = violations(add("adapters/claude-code/oops.ts", 'await import("../../state/file-store.js");'));
		expect(found).toEqual(["adapters/claude-code/oops.ts → state/file-store.ts: adapters may not import state"]);
	});

	it("catches the core importing upward, a package, or the clock", () => {
		const found = violations(
			add(
				"core/oops.ts",
				'import { Engine } from "../engine/engine.js";\nimport pc from "picocolors";\nexport const t = Date.now();',
			),
		);
		expect(found).toEqual([
			"core/oops.ts: the core reads the clock, randomness or the process",
			"core/oops.ts → engine/engine.ts: core may not import engine",
			"core/oops.ts: the core imports picocolors",
		]);
	});

	it("catches the CLI importing an adapter's files past the registry", () => {
		const found = violations(add("cli/oops.ts", 'import { Hub } from "../adapters/opencode/hub.js";'));
		expect(found).toEqual([
			"cli/oops.ts → adapters/opencode/hub.ts: outside the adapters, only the registry and the contract are imported",
		]);
	});

	it("catches the CLI reaching into the dashboard past its door, and an adapter importing the dashboard", () => {
		const found = violations(
			add("cli/oops.ts", 'import { createApp } from "../ui/app.js";\nimport { startDashboard } from "../ui/index.js";'),
		);
		expect(found).toEqual(["cli/oops.ts → ui/app.ts: outside the dashboard, only ui/index.ts is imported"]);
		expect(violations(add("adapters/opencode/oops.ts", 'import { x } from "../../ui/index.js";'))).toEqual([
			"adapters/opencode/oops.ts → ui/index.ts: adapters may not import ui",
		]);
	});

	it("catches one adapter importing another, and anyone but the state layer naming its folder", () => {
		const found = violations(
			add("adapters/opencode/oops.ts", 'import { x } from "../claude-code/events.js";\nconst dir = ".boulder";'),
		);
		expect(found).toEqual([
			"adapters/opencode/oops.ts: names boulder's state folder; only src/state touches state files",
			"adapters/opencode/oops.ts → adapters/claude-code/events.ts: one adapter imports another's folder",
		]);
	});

	it("catches the CLI reading the state layer itself (its doctor goes through the engine)", () => {
		expect(violations(add("cli/oops.ts", 'import { FileStore } from "../state/file-store.js";'))).toEqual([
			"cli/oops.ts → state/file-store.ts: cli may not import state",
		]);
	});

	it("has no import cycle inside a layer", () => {
		expect(layerCycles(sources)).toEqual([]);
	});

	it("catches a cycle inside a layer, type-only imports included", () => {
		const found = layerCycles(
			add("core/oops-a.ts", 'import type { B } from "./oops-b.js";\nexport type A = B;').concat({
				file: "core/oops-b.ts",
				text: 'import { a } from "./oops-a.js";\nexport type B = typeof a;',
			}),
		);
		expect(found).toEqual([["core/oops-a.ts", "core/oops-b.ts"]]);
	});

	it("catches a cycle through a lazy import too", () => {
		const found = layerCycles(
			add("engine/oops-a.ts", 'export const load = () => import("./oops-b.js");').concat({
				file: "engine/oops-b.ts",
				text: 'import { load } from "./oops-a.js";',
			}),
		);
		expect(found).toEqual([["engine/oops-a.ts", "engine/oops-b.ts"]]);
	});

	it("keeps pg in the fleet layer: never the engine (the hook's path) nor a face", () => {
		expect(edges.some((edge) => edge.from.startsWith("fleet/") && edge.to === "pg")).toBe(true);
		const found = violations(add("engine/oops.ts", 'import type { Client } from "pg";'));
		expect(found).toEqual(["engine/oops.ts: imports pg; only src/fleet talks to PostgreSQL (never the hook's path)"]);
		expect(violations(add("fleet/oops.ts", 'import { x } from "../cli/main.js";'))).toEqual([
			"fleet/oops.ts → cli/main.ts: fleet may not import cli",
		]);
	});

	it("lets an SDK entry host an adapter's files, never the CLI or the state", () => {
		const found = violations(
			add(
				"sdk/oops.ts",
				'import { handleHook } from "../adapters/claude-code/events.js";\nimport { EXIT } from "../cli/exit-codes.js";\nimport { x } from "../state/file-store.js";',
			),
		);
		expect(found).toEqual([
			"sdk/oops.ts → cli/exit-codes.ts: sdk may not import cli",
			"sdk/oops.ts → state/file-store.ts: sdk may not import state",
		]);
	});
});
