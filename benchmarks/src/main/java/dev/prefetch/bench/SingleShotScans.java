package dev.prefetch.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The JMH settings every scan benchmark shares, which JMH's annotations pass on to subclasses: one
 * state per trial, each scan timed once in seconds, sixteen warm-up and eight measured scans
 * ({@link ScanBenchmark} says why sixteen), one fork with a fixed, pre-touched 3 GiB heap so that
 * heap growth is not timed. A subclass that needs another setting annotates itself with it, which
 * overrides the one here.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 16)
@Measurement(iterations = 8)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms3g", "-Xmx3g", "-XX:+AlwaysPreTouch"})
public abstract class SingleShotScans {}
