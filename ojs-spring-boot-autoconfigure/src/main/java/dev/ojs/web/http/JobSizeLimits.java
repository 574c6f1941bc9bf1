package dev.ojs.web.http;

import java.io.OutputStream;
import java.util.LinkedHashMap;
import java.util.Map;

import tools.jackson.databind.json.JsonMapper;

import dev.ojs.web.ApiException;

/**
 * The most a job taken over HTTP may carry in {@code args} and in {@code meta}, each measured
 * as its serialized JSON in UTF-8 bytes. A job past either limit is refused with
 * {@code 400 invalid_request} naming the field (with its index in a batch) and the limit.
 *
 * @param maxArgsBytes the most bytes of a job's {@code args}
 * @param maxMetaBytes the most bytes of a job's {@code meta}
 */
public record JobSizeLimits(long maxArgsBytes, long maxMetaBytes) {

	/** 256 KB of arguments. */
	public static final long DEFAULT_MAX_ARGS_BYTES = 256 * 1024;

	/** 64 KB of metadata. */
	public static final long DEFAULT_MAX_META_BYTES = 64 * 1024;

	/** The defaults. */
	public static final JobSizeLimits DEFAULTS = new JobSizeLimits(DEFAULT_MAX_ARGS_BYTES, DEFAULT_MAX_META_BYTES);

	public JobSizeLimits {
		if (maxArgsBytes < 1 || maxMetaBytes < 1) {
			throw new IllegalArgumentException("The args and meta size limits must be at least 1 byte");
		}
	}

	/** Refuses {@code args} past {@link #maxArgsBytes}; {@code field} names it in the request. */
	void checkArgs(Object args, String field, JsonMapper jsonMapper) {
		check(args, field, this.maxArgsBytes, jsonMapper);
	}

	/** Refuses {@code meta} past {@link #maxMetaBytes}; {@code field} names it in the request. */
	void checkMeta(Object meta, String field, JsonMapper jsonMapper) {
		check(meta, field, this.maxMetaBytes, jsonMapper);
	}

	private static void check(Object value, String field, long limit, JsonMapper jsonMapper) {
		Counter counter = new Counter(limit);
		try {
			jsonMapper.writeValue(counter, value);
		}
		catch (RuntimeException ex) {
			if (!counter.exceeded()) {
				throw ex;
			}
		}
		if (counter.exceeded()) {
			Map<String, Object> details = new LinkedHashMap<>();
			details.put("field", field);
			details.put("max_bytes", limit);
			throw ApiException.invalidRequest(
					"The '" + field + "' field is larger than the limit of " + limit + " bytes of JSON.", details);
		}
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
		public void write(int b) throws java.io.IOException {
			add(1);
		}

		@Override
		public void write(byte[] bytes, int offset, int length) throws java.io.IOException {
			add(length);
		}

		private void add(int n) throws java.io.IOException {
			this.count += n;
			if (exceeded()) {
				throw new java.io.IOException("limit passed");
			}
		}

	}

}
