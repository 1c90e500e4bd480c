/**
 * The `boulder` program as it is bundled (`dist/cli/boulder-main.cjs`, loaded
 * through V8's code cache by `dist/cli/boulder.cjs`; see `tsdown.config.ts`):
 * runs `main` on the process's arguments and exits with its code.
 */
import { main } from "./main.js";

void main(process.argv.slice(2)).then((code) => {
	process.exitCode = code;
});
