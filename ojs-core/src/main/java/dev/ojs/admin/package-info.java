/**
 * The admin queries port (ojs-admin-api.md §5–12): keyset-paged job lists with their counts,
 * queue summaries, dead-letter groups, worker nodes and per-minute statistics, as plain Java
 * records behind {@link dev.ojs.admin.AdminStore}.
 */
@NullMarked
package dev.ojs.admin;

import org.jspecify.annotations.NullMarked;
