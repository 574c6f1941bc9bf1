package dev.ojs.bench;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class TimeSeriesTests {

	@Test
	void csvHasAHeaderAndOneLinePerSampleWithMissingFiguresEmpty() {
		TimeSeries series = new TimeSeries(List.of("elapsed_s", "p99_ms", "table_bytes"));
		series.add(Map.of("elapsed_s", 30.0, "p99_ms", 4.125, "table_bytes", 8192.0));
		series.add(Map.of("elapsed_s", 60.5, "table_bytes", 16384.0));
		assertThat(series.toCsv()).isEqualTo("elapsed_s,p99_ms,table_bytes\n30,4.125,8192\n60.5,,16384\n");
		assertThat(series.column("table_bytes")).containsExactly(8192.0, 16384.0);
		assertThat(series.size()).isEqualTo(2);
	}

	@Test
	void figuresOfNoColumnAndBadNamesAreRejected() {
		TimeSeries series = new TimeSeries(List.of("elapsed_s"));
		assertThatIllegalArgumentException().isThrownBy(() -> series.add(Map.of("p99", 1.0))).withMessageContaining("p99");
		assertThatIllegalArgumentException().isThrownBy(() -> new TimeSeries(List.of("a,b")));
		assertThatIllegalArgumentException().isThrownBy(() -> new TimeSeries(List.of()));
	}

	@Test
	void cellsDropTrailingZerosAndNotANumber() {
		assertThat(TimeSeries.cell(1.500)).isEqualTo("1.5");
		assertThat(TimeSeries.cell(0.0004)).isEqualTo("0");
		assertThat(TimeSeries.cell(2.25)).isEqualTo("2.25");
		assertThat(TimeSeries.cell(Double.NaN)).isEmpty();
		assertThat(TimeSeries.cell(-3)).isEqualTo("-3");
	}

}
