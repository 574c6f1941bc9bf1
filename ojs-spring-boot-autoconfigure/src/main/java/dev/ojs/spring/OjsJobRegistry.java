package dev.ojs.spring;

import java.util.List;
import java.util.Optional;

/**
 * The {@link OjsJob @OjsJob} handlers registered in this application, as found at start-up.
 */
public interface OjsJobRegistry {

	/** All registered job handlers, sorted by type. */
	List<RegisteredJob> jobs();

	Optional<RegisteredJob> find(String type);

}
