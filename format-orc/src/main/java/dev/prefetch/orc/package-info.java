/**
 * ORC support: {@link dev.prefetch.orc.OrcFormat}, found by the runtime through {@link
 * java.util.ServiceLoader}. Everything under {@code internal} is not API.
 */
package dev.prefetch.orc;
