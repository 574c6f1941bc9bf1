package dev.ojs.spring;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;

import tools.jackson.databind.json.JsonMapper;

/**
 * The most a job may carry in {@code args} and in {@code meta}, and the most its
 * {@code result} may hold, each measured as its serialized JSON in UTF-8 bytes
 * ({@code ojs.max-args-size}, {@code ojs.max-meta-size}, {@code ojs.max-result-size}).
 * {@link OjsTemplate} refuses a job past either limit, whichever edge enqueues it, and an ack
 * refuses a larger result, with an {@link OjsValidationException} naming the field and the
 * limit ({@code max_bytes}).
 *
 * @param maxArgsBytes the most bytes of a job's {@code args}
 * @param maxMetaBytes the most bytes of a job's {@code meta}
 * @param maxResultBytes the most bytes of a job's {@code result} (spec README decision 28)
 */
public record JobSizeLimits(long maxArgsBytes, long maxMetaBytes, long maxResultBytes) {

	/** 256 KB of arguments. */
	public static final long DEFAULT_MAX_ARGS_BYTES = 256 * 1024;

	/** 64 KB of metadata. */
	public static final long DEFAULT_MAX_META_BYTES = 64 * 1024;

	/** 1 MB of result. */
	public static final long DEFAULT_MAX_RESULT_BYTES = 1024 * 1024;

	/** The least result size limit: the 64 KB every server accepts (spec README decision 28). */
	public static final long MIN_MAX_RESULT_BYTES = 64 * 1024;

	/** The defaults. */
	public static final JobSizeLimits DEFAULTS = new JobSizeLimits(DEFAULT_MAX_ARGS_BYTES, DEFAULT_MAX_META_BYTES);

	public JobSizeLimits {
		if (maxArgsBytes < 1 || maxMetaBytes < 1) {
			throw new IllegalArgumentException("The args and meta size limits must be at least 1 byte");
		}
		if (maxResultBytes < MIN_MAX_RESULT_BYTES) {
			throw new IllegalArgumentException("The result size limit must be at least " + MIN_MAX_RESULT_BYTES + " bytes");
		}
	}

	/** These args and meta limits with the default result limit. */
	public JobSizeLimits(long maxArgsBytes, long maxMetaBytes) {
		this(maxArgsBytes, maxMetaBytes, DEFAULT_MAX_RESULT_BYTES);
	}

	/**
	 * Refuses serialized {@code args} past {@link #maxArgsBytes}.
	 * @param field the field that gave them, such as {@code args} or {@code jobs[2].args}
	 * @throws OjsValidationException when they are past the limit
	 */
	public void checkArgsJson(String json, String field) {
		check(utf8Length(json, this.maxArgsBytes), field, this.maxArgsBytes);
	}

	/**
	 * Refuses serialized {@code meta} past {@link #maxMetaBytes}.
	 * @param field the field that gave it
	 * @throws OjsValidationException when it is past the limit
	 */
	public void checkMetaJson(String json, String field) {
		check(utf8Length(json, this.maxMetaBytes), field, this.maxMetaBytes);
	}

	/**
	 * Refuses {@code args} past {@link #maxArgsBytes} once serialized by {@code jsonMapper},
	 * which stops writing at the limit.
	 * @throws OjsValidationException when they are past the limit
	 */
	public void checkArgs(Object args, String field, JsonMapper jsonMapper) {
		check(serializedLength(args, this.maxArgsBytes, jsonMapper), field, this.maxArgsBytes);
	}

	/**
	 * Refuses {@code meta} past {@link #maxMetaBytes} once serialized by {@code jsonMapper}.
	 * @throws OjsValidationException when it is past the limit
	 */
	public void checkMeta(Object meta, String field, JsonMapper jsonMapper) {
		check(serializedLength(meta, this.maxMetaBytes, jsonMapper), field, this.maxMetaBytes);
	}

	/**
	 * Refuses a serialized {@code result} past {@link #maxResultBytes}.
	 * @throws OjsValidationException when it is past the limit
	 */
	public void checkResultJson(String json) {
		check(utf8Length(json, this.maxResultBytes), "result", this.maxResultBytes);
	}

	private static void check(long length, String field, long limit) {
		if (length > limit) {
			throw new OjsValidationException(field,
					"The '" + OjsValidationException.FIELD + "' field is larger than the limit of " + limit
							+ " bytes of JSON.",
					Map.of("max_bytes", limit));
		}
	}

	/** The UTF-8 length of the text, counted up to just past {@code limit}. */
	static long utf8Length(String text, long limit) {
		long length = 0;
		int size = text.length();
		for (int i = 0; i < size && length <= limit; i++) {
			char c = text.charAt(i);
			if (c < 0x80) {
				length++;
			}
			else if (c < 0x800) {
				length += 2;
			}
			else if (Character.isHighSurrogate(c) && i + 1 < size && Character.isLowSurrogate(text.charAt(i + 1))) {
				length += 4;
				i++;
			}
			else {
				length += 3;
			}
		}
		return length;
	}

	private static long serializedLength(Object value, long limit, JsonMapper jsonMapper) {
		Counter counter = new Counter(limit);
		try {
			jsonMapper.writeValue(counter, value);
		}
		catch (RuntimeException ex) {
			if (!counter.exceeded()) {
				throw ex;
			}
		}
		return counter.count;
	}

	/** Counts the bytes written and stops the writer once past the limit. */
	private static final class Counter extends OutputStream {

		private final long limit;

		private long count;

		Counter(long limit) {
			this.limit = limit;
		}

		boolean exceeded() {
			return this.count > this.limit;
		}

		@Override
		public void write(int b) throws IOException {
			add(1);
		}

		@Override
		public void write(byte[] bytes, int offset, int length) throws IOException {
			add(length);
		}

		private void add(int n) throws IOException {
			this.count += n;
			if (exceeded()) {
				throw new IOException("limit passed");
			}
		}

	}

}
