package dev.ojs.spring.observation;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;

/**
 * The observations of OJS jobs and their keys. Key names follow ojs-distributed-tracing.md
 * §5.1 and span names §4.1 ({@code <queue> enqueue}, {@code <queue> enqueue_batch},
 * {@code <queue> process}).
 */
public enum OjsObservationDocumentation implements ObservationDocumentation {

	/**
	 * An enqueue through {@link dev.ojs.spring.OjsTemplate}: a producer observation whose
	 * trace context is written to each job's {@code meta} ({@code traceparent},
	 * {@code tracestate}).
	 */
	JOB_ENQUEUE {

		@Override
		public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
			return DefaultJobEnqueueObservationConvention.class;
		}

		@Override
		public KeyName[] getLowCardinalityKeyNames() {
			return new KeyName[] { CommonKeyNames.MESSAGING_SYSTEM, CommonKeyNames.JOB_TYPE, CommonKeyNames.JOB_QUEUE };
		}

		@Override
		public KeyName[] getHighCardinalityKeyNames() {
			return new KeyName[] { CommonKeyNames.JOB_ID };
		}

	},

	/**
	 * One attempt of a job, around its handler: a consumer observation that continues the
	 * trace context stored in the job's {@code meta} at enqueue, so every attempt joins the
	 * trace of the enqueue.
	 */
	JOB_PROCESS {

		@Override
		public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
			return DefaultJobProcessObservationConvention.class;
		}

		@Override
		public KeyName[] getLowCardinalityKeyNames() {
			return new KeyName[] { CommonKeyNames.MESSAGING_SYSTEM, CommonKeyNames.JOB_TYPE, CommonKeyNames.JOB_QUEUE,
					ProcessKeyNames.OUTCOME, ProcessKeyNames.WORKFLOW_TYPE };
		}

		@Override
		public KeyName[] getHighCardinalityKeyNames() {
			return new KeyName[] { CommonKeyNames.JOB_ID, ProcessKeyNames.ATTEMPT, ProcessKeyNames.WORKFLOW_ID,
					ProcessKeyNames.WORKFLOW_STEP };
		}

	};

	/** Keys of both observations. */
	public enum CommonKeyNames implements KeyName {

		/** Always {@code ojs} (ojs-distributed-tracing.md §5.1). */
		MESSAGING_SYSTEM {
			@Override
			public String asString() {
				return "messaging.system";
			}
		},

		/** The job type. */
		JOB_TYPE {
			@Override
			public String asString() {
				return "ojs.job.type";
			}
		},

		/** The job's queue ({@code unknown} when the enqueue failed before it was known). */
		JOB_QUEUE {
			@Override
			public String asString() {
				return "ojs.job.queue";
			}
		},

		/** The job id (an enqueue of several jobs has none). */
		JOB_ID {
			@Override
			public String asString() {
				return "ojs.job.id";
			}
		}

	}

	/** Keys of {@link #JOB_PROCESS} only. */
	public enum ProcessKeyNames implements KeyName {

		/**
		 * What the handler did: {@code success} (it returned) or {@code failure} (it threw;
		 * whether the job is retried, discarded or dead-lettered is decided after).
		 */
		OUTCOME {
			@Override
			public String asString() {
				return "ojs.job.outcome";
			}
		},

		/** The 1-based attempt. */
		ATTEMPT {
			@Override
			public String asString() {
				return "ojs.job.attempt";
			}
		},

		/** The id of the job's workflow, on a job of a workflow only. */
		WORKFLOW_ID {
			@Override
			public String asString() {
				return "ojs.workflow.id";
			}
		},

		/**
		 * The type of the job's workflow: {@code chain}, {@code group} or {@code batch}, and
		 * {@code none} for a job outside a workflow. Low cardinality: four values, so the
		 * {@code ojs.job.process} timer can be split by it; present on every job, since
		 * registries such as Prometheus want one set of tag keys per meter name.
		 */
		WORKFLOW_TYPE {
			@Override
			public String asString() {
				return "ojs.workflow.type";
			}
		},

		/**
		 * The job's place in its workflow: the 0-based index of a step (ojs-distributed-tracing.md
		 * §5.3), or the role of a batch callback ({@code on_success}, {@code on_failure},
		 * {@code on_complete}); on a job of a workflow only. High cardinality: a batch has
		 * as many values as jobs (up to 1,000 over HTTP, 100,000 from Java), which as a tag would
		 * make one timer per index; traces carry it, metrics split by type only.
		 */
		WORKFLOW_STEP {
			@Override
			public String asString() {
				return "ojs.workflow.step";
			}
		}

	}

}
