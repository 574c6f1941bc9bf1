package dev.ojs.bench;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SoakChartTests {

	@Test
	void eachPanelDrawsItsColumnsAsPolylinesScaledToThePlot() {
		TimeSeries series = new TimeSeries(List.of("elapsed_s", "p99_ms", "table_bytes"));
		series.add(Map.of("elapsed_s", 0.0, "p99_ms", 2.0, "table_bytes", 0.0));
		series.add(Map.of("elapsed_s", 60.0, "p99_ms", 10.0, "table_bytes", 2.0 * (1 << 20)));
		String svg = SoakChart.render("soak <PostgreSQL> & more", series,
				List.of(new SoakChart.Panel("latency, ms", List.of("p99_ms", "missing"), 1),
						new SoakChart.Panel("size, MiB", List.of("table_bytes"), 1.0 / (1 << 20))));
		assertThat(svg).startsWith("<svg xmlns=\"http://www.w3.org/2000/svg\"")
			.endsWith("</svg>\n")
			.contains("soak &lt;PostgreSQL&gt; &amp; more", "latency, ms", "size, MiB", ">p99_ms<", ">table_bytes<")
			.doesNotContain(">missing<");
		Matcher polylines = Pattern.compile("points=\"([^\"]*)\"").matcher(svg);
		assertThat(polylines.find()).isTrue();
		// x from the left edge (80) to the right one (880); the maximum (10 ms) at 1/1.1 of the height
		assertThat(polylines.group(1)).isEqualTo("80.0,223.6 880.0,78.2");
		assertThat(polylines.find()).isTrue();
		assertThat(polylines.group(1)).isEqualTo("80.0,560.0 880.0,378.2");
		assertThat(polylines.find()).isFalse();
	}

	@Test
	void labelsAreShortAndAnEmptySeriesStillRenders() {
		assertThat(SoakChart.legend("index_jobs_claim_idx_bytes")).isEqualTo("jobs_claim_idx");
		assertThat(SoakChart.legend("table_bytes")).isEqualTo("table_bytes");
		assertThat(SoakChart.label(0)).isEqualTo("0");
		assertThat(SoakChart.label(2.5)).isEqualTo("2.50");
		assertThat(SoakChart.label(250)).isEqualTo("250");
		assertThat(SoakChart.label(25_000)).isEqualTo("25,000");
		String svg = SoakChart.render("empty", new TimeSeries(List.of("elapsed_s", "p99_ms")),
				List.of(new SoakChart.Panel("latency", List.of("p99_ms"), 1)));
		assertThat(svg).contains("points=\"\"");
	}

}
