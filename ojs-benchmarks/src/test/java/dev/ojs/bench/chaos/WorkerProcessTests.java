package dev.ojs.bench.chaos;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class WorkerProcessTests {

	@TempDir
	Path logs;

	@Test
	void launcherUsesThisClasspathForPlainClasspaths() {
		JavaLauncher launcher = new JavaLauncher("/jdk/bin/java", "a.jar:b", false);
		assertThat(launcher.command("x.Main", List.of("-Xmx64m"), List.of("--n=1")))
			.containsExactly("/jdk/bin/java", "-Xmx64m", "-cp", "a.jar:b", "x.Main", "--n=1");
	}

	@Test
	void launcherGoesThroughBootLoaderInsideTheExecutableJar() {
		JavaLauncher launcher = new JavaLauncher("java", "ojs-benchmarks.jar", true);
		assertThat(launcher.command("x.Main", List.of(), List.of("--n=1"))).containsExactly("java",
				"-Dloader.main=x.Main", "-cp", "ojs-benchmarks.jar", JavaLauncher.BOOT_LAUNCHER, "--n=1");
		assertThat(JavaLauncher.isBootJar("a.jar" + java.io.File.pathSeparator + "b.jar")).isFalse();
		assertThat(JavaLauncher.isBootJar("does-not-exist.jar")).isFalse();
	}

	@Test
	void killedWithSigkillAndRestartedAsANewProcess() throws Exception {
		Path log = this.logs.resolve("sleeper.log");
		WorkerProcess worker = new WorkerProcess("sleeper",
				JavaLauncher.current().command(SleeperMain.class.getName(), List.of("-Xshare:auto"), List.of("hello")),
				log, "SLEEPER READY");
		worker.start();
		assertThat(worker.awaitReady(Duration.ofSeconds(30))).isTrue();
		long firstPid = worker.pid();
		assertThat(worker.isReady()).isTrue();
		assertThat(worker.kill()).isEqualTo(firstPid);
		assertThat(worker.isAlive()).isFalse();
		assertThat(worker.exitValue()).isEqualTo(137); // 128 + SIGKILL
		worker.start();
		assertThat(worker.awaitReady(Duration.ofSeconds(30))).isTrue();
		assertThat(worker.pid()).isNotEqualTo(firstPid);
		assertThat(worker.starts()).isEqualTo(2);
		assertThat(worker.stop(Duration.ofSeconds(10))).isEqualTo(143); // 128 + SIGTERM
		String output = Files.readString(log);
		assertThat(output).contains("args hello", "SLEEPER READY pid " + firstPid,
				"SLEEPER READY pid " + worker.pid());
		assertThat(worker.tail(1)).isEqualTo("SLEEPER READY pid " + worker.pid());
	}

	@Test
	void processThatExitsBeforeReadyIsNotReady() throws Exception {
		WorkerProcess worker = new WorkerProcess("quitter",
				JavaLauncher.current().command(SleeperMain.class.getName(), List.of(), List.of("exit", "3")),
				this.logs.resolve("quitter.log"), "NEVER PRINTED");
		worker.start();
		assertThat(worker.awaitReady(Duration.ofSeconds(30))).isFalse();
		assertThat(worker.exitValue()).isEqualTo(3);
	}

}
