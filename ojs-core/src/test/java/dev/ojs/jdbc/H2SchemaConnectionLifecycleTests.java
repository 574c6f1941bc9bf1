package dev.ojs.jdbc;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import org.springframework.core.io.ByteArrayResource;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.jdbc.datasource.init.ScriptUtils;

import dev.ojs.job.NewJob;
import dev.ojs.retry.RetryPolicy;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The H2 table must stay usable after the connection that created it is closed, as a pool
 * does when it retires a connection (Hikari's max lifetime). H2 2.4 breaks on generated
 * columns of the form {@code CASE WHEN state IN (...)} once their creating session is gone.
 */
class H2SchemaConnectionLifecycleTests {

	@Test
	void tableWorksAfterTheCreatingConnectionIsClosed() throws Exception {
		String url = "jdbc:h2:mem:lifecycle_" + UUID.randomUUID().toString().replace("-", "") + ";DB_CLOSE_DELAY=-1";
		try (Connection creating = DriverManager.getConnection(url, "sa", "")) {
			String script = JdbcSchema.script(JdbcPlatform.H2, JdbcStoreSettings.defaults());
			ScriptUtils.executeSqlScript(creating, new ByteArrayResource(script.getBytes(StandardCharsets.UTF_8)));
		}
		try (Connection later = DriverManager.getConnection(url, "sa", "")) {
			JdbcJobStore store = new JdbcJobStore(new SingleConnectionDataSource(later, true),
					new JdbcStoreSettings("ojs_"));
			NewJob job = new NewJob("lifecycle.check", "default", 0, "[]", "{}", null, null, "k1", 3);
			String id = store.insert(List.of(job)).get(0);
			assertThat(store.insert(List.of(job))).containsExactly(id);
			assertThat(store.cancel(id)).isTrue();
			assertThat(store.find(id)).hasValueSatisfying((found) -> assertThat(found.state().value()).isEqualTo("cancelled"));
		}
		try (Connection last = DriverManager.getConnection(url, "sa", ""); Statement statement = last.createStatement()) {
			statement.execute("SHUTDOWN");
		}
	}

}
