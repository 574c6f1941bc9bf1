package dev.ojs.bench.chaos;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * Builds the command line that runs another main class in a new JVM with this JVM's
 * classpath. Inside the executable {@code ojs-benchmarks.jar} (a Spring Boot jar whose
 * classes live under {@code BOOT-INF/}) the class is started through Boot's
 * {@code PropertiesLauncher} with {@code -Dloader.main}; otherwise (tests, IDE, plain
 * classpath) it is named directly.
 */
public final class JavaLauncher {

	static final String BOOT_LAUNCHER = "org.springframework.boot.loader.launch.PropertiesLauncher";

	private final String javaExecutable;

	private final String classPath;

	private final boolean bootJar;

	JavaLauncher(String javaExecutable, String classPath, boolean bootJar) {
		this.javaExecutable = javaExecutable;
		this.classPath = classPath;
		this.bootJar = bootJar;
	}

	/** The running JVM's {@code java} executable and classpath. */
	public static JavaLauncher current() {
		String javaHome = System.getProperty("java.home");
		String classPath = System.getProperty("java.class.path");
		return new JavaLauncher(Path.of(javaHome, "bin", "java").toString(), classPath, isBootJar(classPath));
	}

	/**
	 * The command that runs {@code mainClass}.
	 * @param mainClass fully-qualified class with a {@code main} method
	 * @param jvmOptions options for the new JVM, e.g. {@code -Xmx256m}
	 * @param args program arguments
	 * @return the command for a {@link ProcessBuilder}
	 */
	public List<String> command(String mainClass, List<String> jvmOptions, List<String> args) {
		List<String> command = new ArrayList<>();
		command.add(this.javaExecutable);
		command.addAll(jvmOptions);
		if (this.bootJar) {
			command.add("-Dloader.main=" + mainClass);
			command.add("-cp");
			command.add(this.classPath);
			command.add(BOOT_LAUNCHER);
		}
		else {
			command.add("-cp");
			command.add(this.classPath);
			command.add(mainClass);
		}
		command.addAll(args);
		return command;
	}

	/** Whether the classpath is a single Spring Boot executable jar. */
	static boolean isBootJar(String classPath) {
		if (classPath == null || classPath.contains(File.pathSeparator) || !classPath.endsWith(".jar")) {
			return false;
		}
		try (JarFile jar = new JarFile(classPath)) {
			Manifest manifest = jar.getManifest();
			return manifest != null && manifest.getMainAttributes().getValue("Spring-Boot-Version") != null;
		}
		catch (IOException ex) {
			return false;
		}
	}

}
