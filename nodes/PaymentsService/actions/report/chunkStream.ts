type Listener = (...args: unknown[]) => void;

/**
 * Chunks made one after the other as the two kinds of stream n8n's binary data store reads (service
 * rules §3.5), without Node's stream module (n8n Cloud allows no import but n8n-workflow): an async
 * iterable, which the filesystem store writes to disk as it goes, and an emitter of `data`, `end`,
 * `error` and `close` with `destroy()`, which the in-memory store collects (it starts on the first
 * `data` listener). Consume it one way only. A failed chunk ends it with that error, never with
 * `end`: a stopped read is not a complete file.
 */
export class ChunkStream implements AsyncIterable<Buffer> {
	private readonly listeners = new Map<string, Array<{ listener: Listener; once: boolean }>>();

	private started = false;

	private destroyed = false;

	constructor(private readonly chunks: AsyncGenerator<Buffer>) {}

	[Symbol.asyncIterator](): AsyncIterator<Buffer> {
		this.started = true;
		return this.chunks;
	}

	on(event: string, listener: Listener): this {
		return this.listen(event, listener, false);
	}

	once(event: string, listener: Listener): this {
		return this.listen(event, listener, true);
	}

	off(event: string, listener: Listener): this {
		const list = this.listeners.get(event);
		if (list)
			this.listeners.set(
				event,
				list.filter((entry) => entry.listener !== listener),
			);
		return this;
	}

	removeListener(event: string, listener: Listener): this {
		return this.off(event, listener);
	}

	/** Stops making chunks (the read stops at its next page) and emits `close`. */
	destroy(error?: Error): this {
		if (this.destroyed) return this;
		this.destroyed = true;
		void this.chunks.return(undefined).catch(() => undefined);
		if (error) this.emit('error', error);
		this.emit('close');
		return this;
	}

	private listen(event: string, listener: Listener, once: boolean): this {
		const list = this.listeners.get(event) ?? [];
		list.push({ listener, once });
		this.listeners.set(event, list);
		if (event === 'data' && !this.started) {
			this.started = true;
			// After the caller has added its end and error listeners, as a Node stream starts flowing.
			void Promise.resolve().then(async () => await this.flow());
		}
		return this;
	}

	private emit(event: string, ...args: unknown[]): void {
		const list = this.listeners.get(event) ?? [];
		this.listeners.set(
			event,
			list.filter((entry) => !entry.once),
		);
		for (const { listener } of list) listener(...args);
	}

	private async flow(): Promise<void> {
		try {
			for await (const chunk of this.chunks) {
				if (this.destroyed) return;
				this.emit('data', chunk);
			}
			if (this.destroyed) return;
			this.emit('end');
			this.emit('close');
		} catch (error) {
			if (this.destroyed) return;
			this.destroyed = true;
			this.emit('error', error);
			this.emit('close');
		}
	}
}
