package dev.ojs.bench.chaos;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class PostgresControlTests {

	@TempDir
	Path root;

	@Test
	void picksTheHighestClusterVersion() throws Exception {
		Files.createDirectories(this.root.resolve("etc/9.6"));
		Files.createDirectories(this.root.resolve("etc/15"));
		Files.createDirectories(this.root.resolve("etc/13"));
		Files.createDirectories(this.root.resolve("etc/common"));
		PostgresControl control = new PostgresControl(this.root.resolve("etc"), "");
		assertThat(control.version()).hasValue("15");
		assertThat(control.restartCommand()).containsExactly("pg_ctlcluster", "--skip-systemctl-redirect", "15", "main",
				"restart");
	}

	@Test
	void explainsWhyARestartIsNotPossible() throws Exception {
		Path bin = Files.createDirectories(this.root.resolve("bin"));
		Path etc = Files.createDirectories(this.root.resolve("etc"));
		String local = "jdbc:postgresql://127.0.0.1:5432/x?user=postgres";
		assertThat(new PostgresControl(etc, bin.toString()).unavailableReason("jdbc:postgresql://db.example:5432/x"))
			.hasValueSatisfying((reason) -> assertThat(reason).contains("not on this machine"));
		assertThat(new PostgresControl(etc, bin.toString()).unavailableReason(local))
			.hasValueSatisfying((reason) -> assertThat(reason).contains("pg_ctlcluster not found"));
		Path command = Files.createFile(bin.resolve("pg_ctlcluster"));
		command.toFile().setExecutable(true);
		assertThat(new PostgresControl(etc, bin.toString()).unavailableReason(local))
			.hasValueSatisfying((reason) -> assertThat(reason).contains("no cluster version"));
		Files.createDirectories(etc.resolve("16"));
		assertThat(new PostgresControl(etc, bin.toString()).unavailableReason(local)).isEmpty();
		assertThat(new PostgresControl(etc, bin.toString()).unavailableReason("jdbc:postgresql://localhost/x"))
			.isEmpty();
	}

	@Test
	void recognisesLocalHosts() {
		assertThat(PostgresControl.isLocal("jdbc:postgresql://127.0.0.1:5432/test?user=postgres")).isTrue();
		assertThat(PostgresControl.isLocal("jdbc:postgresql://localhost/test")).isTrue();
		assertThat(PostgresControl.isLocal("jdbc:postgresql://[::1]:5432/test")).isTrue();
		assertThat(PostgresControl.isLocal("jdbc:postgresql://10.0.0.2:5432/test")).isFalse();
		assertThat(PostgresControl.isLocal("jdbc:h2:mem:x")).isFalse();
	}

}
