import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ADAPTERS } from "../../../src/adapters/registry.js";
import { compareVersions, newestTested, TESTED } from "../../../src/adapters/shared/tested-versions.js";

const harnesses = JSON.parse(readFileSync(new URL("../../harnesses/package.json", import.meta.url), "utf8")) as {
	dependencies: Record<string, string>;
};

describe("the harness versions boulder was tested with", () => {
	it("name every adapter's harness, its program and the version its end-to-end suites pin", () => {
		for (const adapter of ADAPTERS) {
			const tested = TESTED[adapter.name];
			expect(tested, adapter.name).toBeDefined();
			expect(tested?.program).toBe(adapter.program);
			expect(tested?.pinned).toBe(harnesses.dependencies[tested?.package ?? ""]);
		}
	});

	it("take the lane's version as the newest tested only when it is newer than the pin", () => {
		const harness = { title: "X", program: "x", package: "x", pinned: "1.2.3", lanePassed: null };
		expect(newestTested(harness)).toBe("1.2.3");
		expect(newestTested({ ...harness, lanePassed: { version: "1.10.0", date: "2026-12-02" } })).toBe("1.10.0");
		expect(newestTested({ ...harness, lanePassed: { version: "1.2.0", date: "2026-12-02" } })).toBe("1.2.3");
	});

	it("compare versions by number, not as text", () => {
		expect(compareVersions("2.1.332", "2.1.197")).toBeGreaterThan(0);
		expect(compareVersions("0.9.0", "0.10.0")).toBeLessThan(0);
		expect(compareVersions("1.0.0", "1.0.0-beta.1")).toBe(0);
		expect(compareVersions("1.0", "1.0.0")).toBe(0);
	});
});
