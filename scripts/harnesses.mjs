/**
 * Installs the harness binaries the end-to-end suites drive (test/harnesses,
 * its own package and lockfile) when they are missing or the lockfile
 * changed since the last install. `npm test` runs it first (`pretest`), so
 * `npm install && npm test` still needs nothing by hand, while
 * `npm install && npm run demo` never downloads a harness.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const folder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "test", "harnesses");
const lockfile = path.join(folder, "package-lock.json");
const stamp = path.join(folder, "node_modules", ".boulder-installed");

const wanted = createHash("sha256").update(readFileSync(lockfile)).digest("hex");
const have = existsSync(stamp) ? readFileSync(stamp, "utf8").trim() : null;
if (have === wanted) process.exit(0);

console.error("Installing the pinned harness binaries for the end-to-end suites (test/harnesses)...");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
// Warnings are dropped: several harnesses declare Node 22 while boulder's floor is 20; the suites run those on Node 22.
const result = spawnSync(npm, ["install", "--no-save", "--no-audit", "--no-fund", "--loglevel=error"], {
	cwd: folder,
	stdio: "inherit",
});
if (result.status !== 0) {
	console.error(
		`Installing the harness binaries in ${folder} failed (npm install exited ${result.status ?? result.signal}).`,
	);
	process.exit(result.status || 1);
}
writeFileSync(stamp, `${wanted}\n`);
