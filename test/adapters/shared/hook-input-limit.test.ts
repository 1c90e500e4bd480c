import { describe, expect, it } from "vitest";
import { MAX_INPUT_BYTES, readInput } from "../../../src/adapters/command-hook/runtime.js";

describe("a hook's input", () => {
	it("is read up to 16 MB and refused past it, naming the limit, without reading the rest", async () => {
		expect(MAX_INPUT_BYTES).toBe(16 * 1024 * 1024);
		const chunk = Buffer.alloc(1024 * 1024, 32);
		let pulled = 0;
		async function* stdin() {
			for (let index = 0; index < 40; index++) {
				pulled++;
				yield chunk;
			}
		}
		await expect(readInput(stdin())).rejects.toThrow(`the hook input is larger than ${MAX_INPUT_BYTES} bytes`);
		expect(pulled).toBe(17);
		expect(await readInput([Buffer.from('{"a":1}')])).toBe('{"a":1}');
	});
});
