import { ChunkStream } from '../../../../nodes/PaymentsService/actions/report/chunkStream';

describe('ChunkStream: the file as n8n’s binary data stores read it', () => {
	async function* chunks(fail = false): AsyncGenerator<Buffer> {
		yield Buffer.from('a,b\r\n');
		await new Promise((resolve) => setImmediate(resolve));
		yield Buffer.from('1,2\r\n');
		if (fail) throw new Error('page 3 failed');
	}

	test('the default (in-memory) store collects it into the file: n8n’s own binaryToBuffer', async () => {
		const { binaryToBuffer } = await import('@n8n/backend-network');
		const buffer = await binaryToBuffer(new ChunkStream(chunks()) as never);
		expect(buffer.toString()).toBe('a,b\r\n1,2\r\n');
	});

	test('the default store fails with the read’s error, never with a shorter file', async () => {
		const { binaryToBuffer } = await import('@n8n/backend-network');
		await expect(binaryToBuffer(new ChunkStream(chunks(true)) as never)).rejects.toThrow(
			'page 3 failed',
		);
	});

	test('the filesystem store writes it chunk by chunk (fs.writeFile of an async iterable), and fails with the read’s error', async () => {
		const { mkdtemp, readFile, writeFile, rm } = await import('fs/promises');
		const { tmpdir } = await import('os');
		const { join } = await import('path');
		const folder = await mkdtemp(join(tmpdir(), 'chunk-stream-'));
		try {
			await writeFile(join(folder, 'ok.csv'), new ChunkStream(chunks()));
			expect((await readFile(join(folder, 'ok.csv'))).toString()).toBe('a,b\r\n1,2\r\n');
			await expect(
				writeFile(join(folder, 'bad.csv'), new ChunkStream(chunks(true))),
			).rejects.toThrow('page 3 failed');
		} finally {
			await rm(folder, { recursive: true, force: true });
		}
	});
});
