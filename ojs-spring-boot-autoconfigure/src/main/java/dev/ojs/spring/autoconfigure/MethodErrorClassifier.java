package dev.ojs.spring.autoconfigure;

import java.lang.reflect.UndeclaredThrowableException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.core.annotation.AnnotationUtils;

import dev.ojs.job.Job;
import dev.ojs.retry.ErrorCode;
import dev.ojs.retry.JobError;
import dev.ojs.spring.JobErrorClassifier;
import dev.ojs.spring.JobInfo;
import dev.ojs.spring.OjsError;
import dev.ojs.spring.OjsJob;
import dev.ojs.spring.OjsJobException;
import dev.ojs.worker.ErrorClassifier;

/**
 * Translates the exceptions of one {@link OjsJob @OjsJob} method into OJS errors, in the
 * order documented on {@link OjsJob}, then lets {@link JobErrorClassifier} beans override
 * (one that throws is logged and ignored).
 */
final class MethodErrorClassifier implements ErrorClassifier {

	private static final Log logger = LogFactory.getLog(MethodErrorClassifier.class);

	private final ExceptionCodes codes;

	private final Supplier<List<JobErrorClassifier>> classifiers;

	MethodErrorClassifier(ExceptionCodes codes, Supplier<List<JobErrorClassifier>> classifiers) {
		this.codes = codes;
		this.classifiers = classifiers;
	}

	@Override
	public JobError classify(Job job, Throwable failure) {
		Throwable exception = unwrap(failure);
		JobError error = classify(exception);
		List<JobErrorClassifier> classifiers = this.classifiers.get();
		if (!classifiers.isEmpty()) {
			JobInfo info = JobInfo.of(job);
			for (JobErrorClassifier classifier : classifiers) {
				Optional<JobError> override = override(classifier, info, exception, error);
				if (override.isPresent()) {
					return override.get();
				}
			}
		}
		return error;
	}

	private static Optional<JobError> override(JobErrorClassifier classifier, JobInfo job, Throwable exception,
			JobError error) {
		try {
			Optional<JobError> override = classifier.classify(job, exception, error);
			return (override != null) ? override : Optional.empty();
		}
		catch (RuntimeException ex) {
			logger.warn("JobErrorClassifier " + classifier + " failed on job " + job.id() + "; keeping " + error, ex);
			return Optional.empty();
		}
	}

	JobError classify(Throwable exception) {
		if (exception instanceof ArgumentBindingException binding) {
			return new JobError(ArgumentBindingException.ERROR_TYPE, binding.getMessage(), ErrorCode.FAIL,
					Map.of("parameter_index", binding.getParameterIndex()));
		}
		if (exception instanceof OjsJobException ojs) {
			return ojs.toJobError();
		}
		OjsError declared = AnnotationUtils.findAnnotation(exception.getClass(), OjsError.class);
		String className = JobError.typeOf(exception.getClass());
		String type = (declared != null && !declared.type().isBlank()) ? declared.type() : className;
		ErrorCode code = this.codes.codeFor(exception.getClass());
		if (code == null) {
			code = (declared != null) ? declared.code() : ErrorCode.RETRY;
		}
		String message = (exception.getMessage() != null) ? exception.getMessage() : className;
		Map<String, Object> details = type.equals(className) ? Map.of()
				: Map.of("exception", exception.getClass().getName());
		return new JobError(type, message, code, details);
	}

	/**
	 * The handler's own failure: {@link MethodJobHandler} already unwraps the reflective
	 * call's {@link java.lang.reflect.InvocationTargetException}, so only the wrapper a proxy
	 * puts around an undeclared checked exception is removed here (an
	 * {@code InvocationTargetException} thrown by the handler's own code keeps its type).
	 */
	private static Throwable unwrap(Throwable failure) {
		Throwable current = failure;
		while (current instanceof UndeclaredThrowableException && current.getCause() != null) {
			current = current.getCause();
		}
		return current;
	}

}
