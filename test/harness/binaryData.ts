import { Container } from '@n8n/di';
import { BinaryDataConfig, BinaryDataService } from 'n8n-core';
import { mkdtempSync, rmSync } from 'fs';
import os from 'os';
import path from 'path';
import type { IBinaryData } from 'n8n-workflow';

/**
 * n8n's binary data on the filesystem, as n8n 2.x keeps it by default in regular mode
 * (`N8N_DEFAULT_BINARY_DATA_MODE=filesystem`): a file a node writes as a stream goes to disk as it
 * is made, and the item holds an id. The engine otherwise keeps binary data in memory (base64 on
 * the item). Call in a `beforeAll`; `restore()` in the `afterAll` goes back to memory and removes
 * the folder.
 */
export async function useFilesystemBinaryData(): Promise<{
	folder: string;
	/** The bytes of a binary the filesystem store holds. */
	read(binary: IBinaryData): Promise<Buffer>;
	restore(): void;
}> {
	const folder = mkdtempSync(path.join(os.tmpdir(), 'payments-binary-'));
	const config = Container.get(BinaryDataConfig);
	const service = Container.get(BinaryDataService);
	const mode = config.mode;
	const storagePath = config.localStoragePath;
	config.mode = 'filesystem';
	config.localStoragePath = folder;
	await service.init();
	return {
		folder,
		read: async (binary) => await service.getAsBuffer(binary),
		restore() {
			config.mode = mode;
			config.localStoragePath = storagePath;
			// Without a manager for its mode the service keeps binary data in memory again.
			(service as unknown as { mode: string }).mode = 'default';
			rmSync(folder, { recursive: true, force: true });
		},
	};
}
