// GraphGrouping: which boxes of the graph view are collapsed, as plain state.
//
// The graph view can group nodes in one of three ways (GroupMode): not at
// all, by the chains the fusion pass fuses (fusionGroups, the default), or
// by source line (groupBySourceLine); a caller may also give its own groups.
// Each group is drawn either as one box or as a frame around its members, and
// each fused node (op `fused`, after the fusion pass) either as one box or
// as its program's steps in a frame. The state is a default per kind — fusion
// groups start open (frames show what fusion will merge), line and caller
// groups start collapsed, fused nodes start as one box — plus the set of
// groups and fused nodes the user toggled (double-click). "Collapse groups"
// and "Expand all" reset every toggle to one default. `optionsFor` turns the
// state into LayoutOptions for a graph; it runs on the layout worker thread
// (fusion groups run the Fusion pass on a copy of the graph).
#pragma once

#include "layout/GraphLayout.h"

#include <set>

namespace tempo::views {

enum class GroupMode { None, Fusion, SourceLine };

struct GraphGrouping {
  GroupMode mode = GroupMode::Fusion;
  tempo::NodeGroups callerGroups;  ///< replaces the computed groups when not empty (except in mode None)
  bool groupsOpen = true;          ///< groups drawn as frames unless toggled
  std::set<int> toggledGroups;
  bool fusedOpen = false;          ///< fused nodes drawn as their steps unless toggled
  std::set<tempo::NodeId> toggledFused;

  /// Switches the grouping and resets the toggles to that grouping's default.
  void setMode(GroupMode m);
  /// Uses `groups` (collapsed) instead of the computed ones.
  void setCallerGroups(tempo::NodeGroups groups);
  void collapseAll();
  void expandAll();
  /// Flips one group (one fused node) between box and frame.
  void toggleGroup(int group) { flip(toggledGroups, group); }
  void toggleFused(tempo::NodeId node) { flip(toggledFused, node); }
  /// Opens a group (a fused node) if it is collapsed.
  void openGroup(int group);
  void openFused(tempo::NodeId node);

  /// The groups of `g` under the current mode.
  tempo::NodeGroups groupsOf(const tempo::Graph& g) const;
  /// Layout options drawing `g` in this state.
  tempo::LayoutOptions optionsFor(const tempo::Graph& g) const;

private:
  static void flip(std::set<int>& set, int id);
  bool groupOpen(int group) const { return groupsOpen != (toggledGroups.count(group) != 0); }
  bool fusedNodeOpen(tempo::NodeId node) const { return fusedOpen != (toggledFused.count(node) != 0); }
};

}  // namespace tempo::views
