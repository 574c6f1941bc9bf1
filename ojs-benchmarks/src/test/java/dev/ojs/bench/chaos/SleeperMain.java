package dev.ojs.bench.chaos;

/**
 * A stand-in worker process for {@link WorkerProcessTests}: prints its arguments and a ready
 * line, then sleeps until killed (or exits with the code given as first argument after
 * {@code exit}).
 */
public final class SleeperMain {

	private SleeperMain() {
	}

	public static void main(String[] args) throws InterruptedException {
		System.out.println("args " + String.join(" ", args));
		System.out.println("SLEEPER READY pid " + ProcessHandle.current().pid());
		if (args.length == 2 && args[0].equals("exit")) {
			System.exit(Integer.parseInt(args[1]));
		}
		Thread.sleep(60_000);
	}

}
