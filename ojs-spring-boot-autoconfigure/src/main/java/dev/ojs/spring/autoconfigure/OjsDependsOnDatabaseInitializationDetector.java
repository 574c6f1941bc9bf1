package dev.ojs.spring.autoconfigure;

import java.util.Set;

import org.springframework.boot.sql.init.dependency.AbstractBeansOfTypeDependsOnDatabaseInitializationDetector;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitializationDetector;

import dev.ojs.job.JobStore;
import dev.ojs.worker.Worker;

/**
 * {@link DependsOnDatabaseInitializationDetector} for the OJS {@link JobStore} and
 * {@link Worker}: they are created after the database (and so the job table) is
 * initialized.
 */
class OjsDependsOnDatabaseInitializationDetector extends AbstractBeansOfTypeDependsOnDatabaseInitializationDetector {

	@Override
	protected Set<Class<?>> getDependsOnDatabaseInitializationBeanTypes() {
		return Set.of(JobStore.class, Worker.class);
	}

}
