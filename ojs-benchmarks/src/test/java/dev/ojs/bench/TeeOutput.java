package dev.ojs.bench;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * A {@link PrintStream} that shows everything on standard output (so the surefire report
 * has the tables) and keeps a copy for assertions.
 */
public final class TeeOutput extends PrintStream {

	private final ByteArrayOutputStream copy;

	public TeeOutput() {
		this(new ByteArrayOutputStream());
	}

	private TeeOutput(ByteArrayOutputStream copy) {
		super(new OutputStream() {

			@Override
			public void write(int b) {
				copy.write(b);
				System.out.write(b);
			}

			@Override
			public void write(byte[] bytes, int offset, int length) {
				copy.write(bytes, offset, length);
				System.out.write(bytes, offset, length);
			}

		}, true, StandardCharsets.UTF_8);
		this.copy = copy;
	}

	public String text() {
		flush();
		return this.copy.toString(StandardCharsets.UTF_8);
	}

	/** The last non-blank line printed. */
	public String lastLine() {
		String[] lines = text().strip().split("\\R");
		return lines[lines.length - 1];
	}

}
