package dev.ojs.web;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Collection;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

/**
 * The host names a request may carry in its {@code Host} header when it is let in for where
 * it comes from rather than for a credential (loopback access). A browser page whose name was
 * rebound to this machine's address (DNS rebinding) sends its own name, which is refused. An IP
 * address, {@code localhost} and the configured names pass: no page can make a browser send
 * those for a name it controls.
 */
public final class OwnHosts {

	private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

	private final Set<String> names;

	/** @param names further host names of this application (without port), e.g. behind a proxy */
	public OwnHosts(Collection<String> names) {
		this.names = names.stream().map((name) -> name.strip().toLowerCase(Locale.ROOT)).collect(Collectors.toUnmodifiableSet());
	}

	/** Whether a {@code Host} header names this application. */
	public boolean isOwn(@Nullable String hostHeader) {
		if (hostHeader == null || hostHeader.isBlank()) {
			return false;
		}
		String host = hostHeader.strip().toLowerCase(Locale.ROOT);
		if (host.startsWith("[")) {
			int end = host.indexOf(']');
			return end > 0 && (end == host.length() - 1 || host.charAt(end + 1) == ':');
		}
		int colon = host.indexOf(':');
		String name = (colon >= 0) ? host.substring(0, colon) : host;
		return IPV4.matcher(name).matches() || name.equals("localhost") || this.names.contains(name);
	}

	/** Whether a remote address is a literal loopback address (no name lookup). */
	public static boolean isLoopback(@Nullable String address) {
		if (address == null || address.isEmpty()) {
			return false;
		}
		char first = address.charAt(0);
		if (!(Character.digit(first, 16) >= 0 || first == ':' || first == '[')) {
			return false;
		}
		try {
			return InetAddress.getByName(address).isLoopbackAddress();
		}
		catch (UnknownHostException ex) {
			return false;
		}
	}

}
