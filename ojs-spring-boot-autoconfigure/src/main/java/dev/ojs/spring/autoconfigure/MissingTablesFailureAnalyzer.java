package dev.ojs.spring.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

import dev.ojs.jdbc.JdbcStoreSettings;
import dev.ojs.jdbc.MissingTablesException;

/**
 * Explains a start-up that stopped because the OJS tables do not exist: which are missing,
 * and the two ways to create them.
 */
class MissingTablesFailureAnalyzer extends AbstractFailureAnalyzer<MissingTablesException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, MissingTablesException cause) {
		String description = "OJS cannot start: the table" + ((cause.getTables().size() > 1) ? "s " : " ")
				+ String.join(", ", cause.getTables()) + ((cause.getTables().size() > 1) ? " do" : " does")
				+ " not exist in the " + cause.getPlatform().id() + " database of the application.";
		String script = cause.getScriptLocation();
		String prefix = cause.getTablePrefix().equals(JdbcStoreSettings.DEFAULT_TABLE_PREFIX) ? ""
				: " with its table prefix " + JdbcStoreSettings.DEFAULT_TABLE_PREFIX + " replaced by "
						+ cause.getTablePrefix();
		String action = "Create the tables in one of two ways:\n"
				+ "\t- let the application create them at start-up: set ojs.jdbc.initialize-schema=always"
				+ " (the script creates only what is missing, so every start may run it);\n"
				+ "\t- or apply the script " + script + " from the ojs-core jar" + prefix
				+ " with your database migrations (unzip -p ojs-core-<version>.jar " + script + ").";
		return new FailureAnalysis(description, action, cause);
	}

}
