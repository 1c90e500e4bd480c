// A host program that handles Ctrl-C itself, as the SDK examples do
// (`process.once("SIGINT", ...)` before anything else), then takes and
// releases a lock, then takes one and holds it ("held") or not ("released").
// On SIGINT it prints "aborted" and ends by itself, with code 0.
import { withLock } from "../../../dist/state/index.js";

const [file, when] = process.argv.slice(2);
const keepAlive = setInterval(() => {}, 1_000);
process.once("SIGINT", () => {
	process.stdout.write("aborted\n");
	clearInterval(keepAlive);
	setTimeout(() => process.exit(0), 50);
});
await withLock(file, () => {}, { staleMs: 2_000, waitMs: 30_000 });
if (when === "released") {
	process.stdout.write("ready\n");
} else {
	await withLock(
		file,
		async () => {
			process.stdout.write("ready\n");
			await new Promise(() => {});
		},
		{ staleMs: 2_000, waitMs: 30_000 },
	);
}
