import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';

interface SortableListProps<T extends { id: string }> {
  items: readonly T[];
  /** The list's accessible name. */
  label: string;
  /** How an item is named in the handle's label and in what screen readers hear while it moves. */
  nameOf: (item: T) => string;
  onMove: (from: number, to: number) => void;
  disabled?: boolean;
  children: (item: T, index: number, controls: ReactNode) => ReactNode;
}

/**
 * A list reordered three ways: dragging its handle with a pointer, the handle with the keyboard (Space
 * picks the item up, arrows move it, Space drops it, Escape cancels; dnd-kit announces each step), and
 * plain "Move up" / "Move down" buttons for anyone who prefers them.
 */
export function SortableList<T extends { id: string }>({
  items,
  label,
  nameOf,
  onMove,
  disabled = false,
  children,
}: SortableListProps<T>) {
  const { t } = useTranslation();
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const indexOf = (id: UniqueIdentifier) => items.findIndex((item) => item.id === id);
  const nameAt = (id: UniqueIdentifier) => {
    const item = items[indexOf(id)];
    return item ? nameOf(item) : '';
  };
  const announcements: Announcements = {
    onDragStart: ({ active }) => t('forms.dnd.picked', { name: nameAt(active.id), position: indexOf(active.id) + 1 }),
    onDragOver: ({ active, over }) =>
      over ? t('forms.dnd.over', { name: nameAt(active.id), position: indexOf(over.id) + 1 }) : undefined,
    onDragEnd: ({ active, over }) =>
      over
        ? t('forms.dnd.dropped', { name: nameAt(active.id), position: indexOf(over.id) + 1 })
        : t('forms.dnd.cancelled', { name: nameAt(active.id) }),
    onDragCancel: ({ active }) => t('forms.dnd.cancelled', { name: nameAt(active.id) }),
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over && active.id !== over.id) onMove(indexOf(active.id), indexOf(over.id));
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{ announcements, screenReaderInstructions: { draggable: t('forms.dnd.instructions') } }}
    >
      <SortableContext items={items.map((item) => item.id)} strategy={verticalListSortingStrategy} disabled={disabled}>
        <ul aria-label={label} className="flex flex-col gap-3">
          {items.map((item, index) => (
            <SortableItem
              key={item.id}
              id={item.id}
              name={nameOf(item)}
              first={index === 0}
              last={index === items.length - 1}
              disabled={disabled}
              onMove={(step) => onMove(index, index + step)}
            >
              {(controls) => children(item, index, controls)}
            </SortableItem>
          ))}
        </ul>
      </SortableContext>
    </DndContext>
  );
}

function SortableItem({
  id,
  name,
  first,
  last,
  disabled,
  onMove,
  children,
}: {
  id: string;
  name: string;
  first: boolean;
  last: boolean;
  disabled: boolean;
  onMove: (step: -1 | 1) => void;
  children: (controls: ReactNode) => ReactNode;
}) {
  const { t } = useTranslation();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id,
    disabled,
  });
  const controls = disabled ? null : (
    <div className="flex flex-wrap items-center gap-2">
      <button
        type="button"
        ref={setActivatorNodeRef}
        {...attributes}
        {...listeners}
        aria-label={t('forms.reorder', { name })}
        className="btn-secondary cursor-grab touch-none px-3"
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5 fill-current">
          <circle cx="7" cy="5" r="1.5" />
          <circle cx="13" cy="5" r="1.5" />
          <circle cx="7" cy="10" r="1.5" />
          <circle cx="13" cy="10" r="1.5" />
          <circle cx="7" cy="15" r="1.5" />
          <circle cx="13" cy="15" r="1.5" />
        </svg>
      </button>
      <button
        type="button"
        className="btn-secondary"
        disabled={first}
        aria-label={t('forms.move_up_label', { name })}
        onClick={() => onMove(-1)}
      >
        {t('forms.move_up')}
      </button>
      <button
        type="button"
        className="btn-secondary"
        disabled={last}
        aria-label={t('forms.move_down_label', { name })}
        onClick={() => onMove(1)}
      >
        {t('forms.move_down')}
      </button>
    </div>
  );
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      className={`min-w-0 ${isDragging ? 'relative z-10 opacity-80 shadow-lg' : ''}`}
    >
      {children(controls)}
    </li>
  );
}
