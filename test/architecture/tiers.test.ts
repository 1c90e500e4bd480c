/**
 * The unit tier is honest: a test in it that starts a process, listens on a
 * socket or connects to one fails at that call (test/support/unit-guard.ts),
 * and no plain `*.test.ts` file imports what only the other tiers may use.
 */
import childProcess, { execFileSync, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

function testFiles(dir: string): string[] {
	return readdirSync(path.join(ROOT, dir), { recursive: true, encoding: "utf8" })
		.filter((name) => name.endsWith(".test.ts"))
		.map((name) => path.join(dir, name).split(path.sep).join("/"));
}

const unitFiles = [...testFiles("test"), ...testFiles("bench")].filter(
	(file) => !file.startsWith("test/e2e/") && !file.endsWith(".process.test.ts") && !file.endsWith(".browser.test.ts"),
);

describe("the unit tier", () => {
	it("refuses to start a child process, whichever way it is asked", () => {
		expect(() => execFileSync("true")).toThrow("the unit tier runs no child process (execFileSync true)");
		expect(() => spawn("node", ["--version"])).toThrow("the unit tier runs no child process (spawn node)");
		expect(() => childProcess.fork("x.js")).toThrow("*.process.test.ts");
	});

	it("refuses to listen on a socket or to connect to one", () => {
		expect(() => net.createServer().listen(0, "127.0.0.1")).toThrow("the unit tier runs no server socket");
		expect(() => net.connect(1, "127.0.0.1")).toThrow("the unit tier runs no socket connection");
	});

	it("holds no file that imports a process, socket or browser module", () => {
		expect(unitFiles.length).toBeGreaterThan(100);
		// This file imports them only to see the guard refuse them.
		const offenders = unitFiles
			.filter((file) => file !== "test/architecture/tiers.test.ts")
			.filter((file) =>
				/from "(?:node:)?(?:child_process|net|http|https|worker_threads)"|from "playwright-core"/.test(
					readFileSync(path.join(ROOT, file), "utf8"),
				),
			);
		expect(offenders).toEqual([]);
	});
});
