// Writes `count` distinguishable versions round-robin over `files` state files,
// printing each index once its write has returned, so the parent knows which
// versions are certainly on disk when it kills this process.
import { createHash } from "node:crypto";
import path from "node:path";
import { writeFileAtomic } from "../../../dist/state/index.js";

const [dir, startArg, countArg, filesArg] = process.argv.slice(2);
const start = Number(startArg);
const count = Number(countArg);
const files = Number(filesArg);

for (let i = start; i < start + count; i++) {
	const file = i % files;
	// Lengths vary a lot so a torn or mixed write could not look whole.
	const body = { file, i, payload: String.fromCharCode(97 + (i % 26)).repeat(((i * 7919) % 6000) + 1) };
	const hash = createHash("sha256").update(JSON.stringify(body)).digest("hex");
	await writeFileAtomic(path.join(dir, `state-${file}.json`), JSON.stringify({ ...body, hash }));
	process.stdout.write(`${i}\n`);
}
