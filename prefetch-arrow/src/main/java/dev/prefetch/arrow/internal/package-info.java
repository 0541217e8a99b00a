/** The type mapping and the bulk vector filling behind {@code dev.prefetch.arrow}; not an API. */
package dev.prefetch.arrow.internal;
