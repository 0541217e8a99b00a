/**
 * ORC support. This package holds what users name: {@link dev.prefetch.orc.OrcOptions} (the {@code
 * orc.*} keys) and {@link dev.prefetch.orc.OrcStripeFooters} (a tool). The format itself, {@code
 * internal.OrcFormat}, is found by the runtime through {@link java.util.ServiceLoader}. Everything
 * under {@code internal} is not API.
 */
package dev.prefetch.orc;
