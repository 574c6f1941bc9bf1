package dev.ojs.bench.chaos;

import java.util.ArrayList;
import java.util.List;

import dev.ojs.bench.chaos.BadInputGenerator.BadInput;
import dev.ojs.retry.RetryPolicyValidationException;

/**
 * Feeds malformed retry policies through one entry point (e.g. {@code RetryPolicy.parse}
 * or {@code OjsTemplate.enqueue}) and tallies the outcomes: every input must be rejected
 * with a {@link RetryPolicyValidationException} of type
 * {@value RetryPolicyValidationException#ERROR_TYPE} whose message names the bad field.
 */
public final class BadInputCheck {

	private static final int EXAMPLES = 3;

	private BadInputCheck() {
	}

	/** An entry point that takes a partial policy JSON. */
	@FunctionalInterface
	public interface EntryPoint {

		void accept(String policyJson) throws Exception;

	}

	/**
	 * Outcomes of feeding the inputs through one entry point.
	 *
	 * @param path the entry point's name
	 * @param inputs inputs fed
	 * @param rejected rejected as required (right exception, error type, field named)
	 * @param accepted not rejected at all
	 * @param wrongErrorType rejected with another error type
	 * @param fieldNotNamed rejected, but the message names none of the bad fields
	 * @param otherExceptions failed with any other exception
	 * @param examples a few inputs that were not rejected as required, with what happened
	 */
	public record Tally(String path, int inputs, int rejected, int accepted, int wrongErrorType, int fieldNotNamed,
			int otherExceptions, List<String> examples) {

		public boolean allRejected() {
			return this.rejected == this.inputs;
		}

		public Check check() {
			return Check.of("malformed policies rejected through " + this.path, allRejected(),
					this.rejected + "/" + this.inputs,
					"accepted " + this.accepted + ", wrong error type " + this.wrongErrorType + ", field not named "
							+ this.fieldNotNamed + ", other exceptions " + this.otherExceptions
							+ (this.examples.isEmpty() ? "" : "; e.g. " + String.join("; ", this.examples)));
		}

	}

	public static Tally run(String path, List<BadInput> inputs, EntryPoint entryPoint) {
		int rejected = 0;
		int accepted = 0;
		int wrongErrorType = 0;
		int fieldNotNamed = 0;
		int other = 0;
		List<String> examples = new ArrayList<>();
		for (BadInput input : inputs) {
			String problem;
			try {
				entryPoint.accept(input.json());
				accepted++;
				problem = "accepted";
			}
			catch (RetryPolicyValidationException ex) {
				String message = String.valueOf(ex.getMessage());
				if (!RetryPolicyValidationException.ERROR_TYPE.equals(ex.errorType())) {
					wrongErrorType++;
					problem = "error type " + ex.errorType();
				}
				else if (input.fields().stream().noneMatch(message::contains)) {
					fieldNotNamed++;
					problem = "message '" + message + "' names none of " + input.fields();
				}
				else {
					rejected++;
					problem = null;
				}
			}
			catch (Exception | Error ex) {
				other++;
				problem = ex.getClass().getName() + ": " + ex.getMessage();
			}
			if (problem != null && examples.size() < EXAMPLES) {
				examples.add(input.json() + " -> " + problem);
			}
		}
		return new Tally(path, inputs.size(), rejected, accepted, wrongErrorType, fieldNotNamed, other,
				List.copyOf(examples));
	}

}
