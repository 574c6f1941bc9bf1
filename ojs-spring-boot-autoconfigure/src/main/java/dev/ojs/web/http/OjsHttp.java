package dev.ojs.web.http;

import org.springframework.http.MediaType;

import dev.ojs.web.OjsPaths;

/** Constants of the OJS HTTP binding (ojs-http-binding.md §3, §4). */
public final class OjsHttp {

	/** The binding's media type (§4.1). */
	public static final String MEDIA_TYPE_VALUE = "application/openjobspec+json";

	public static final MediaType MEDIA_TYPE = MediaType.parseMediaType(MEDIA_TYPE_VALUE);

	/** The spec version this binding speaks (§3.2). */
	public static final String VERSION = "1.0";

	/** Request and response header naming the spec version (§3.2, §6.5). */
	public static final String VERSION_HEADER = "OJS-Version";

	/** Base path of the versioned endpoints (§3.1). */
	public static final String BASE_PATH = OjsPaths.BASE_PATH;

	/** The unversioned manifest (§21.1). */
	public static final String MANIFEST_PATH = OjsPaths.MANIFEST_PATH;

	private OjsHttp() {
	}

}
